/**
 * Notifications (issue 28): channels (notify_channel: a robot, a webhook or an SMTP server), the
 * outbox of messages to send (notify_message, a row per message, written in the transaction of the
 * change it tells of), and each channel's shared rate-limit state (notify_channel_rate: its recent
 * send times and a pause after a vendor's own rate-limit answer), which every instance reads under
 * a row lock so that together they keep to the vendor's limit. The menus and resources arrive with
 * the built-in catalogue at start.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

export function notification(dialect: Dialect) {
  const withId = (db: Kysely<unknown>, name: string, type: 'serial' | 'bigserial') => {
    const table = db.schema.createTable(name);
    return dialect === 'postgres' ? table.addColumn('id', type, (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  };
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await withId(db, 'notify_channel', 'serial')
        .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        // JSON: url and secret, or the SMTP settings; the credentials in it never leave the server.
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('state', 'integer', (c) => c.notNull())
        .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('health', 'varchar(16)', (c) => c.notNull().defaultTo('unknown'))
        .addColumn('health_reason', 'varchar(500)', (c) => c.notNull().defaultTo(''))
        .addColumn('health_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('notify_channel_rate')
        .addColumn('channel_id', 'integer', (c) => c.primaryKey().references('notify_channel.id').onDelete('cascade'))
        // JSON array of the epoch ms of the latest sends, as many as the longest window allows.
        .addColumn('recent', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('paused_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();

      await withId(db, 'notify_message', 'bigserial')
        .addColumn('channel_id', 'integer', (c) => c.notNull().references('notify_channel.id'))
        .addColumn('alarm_id', 'bigint')
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('link', 'varchar(500)', (c) => c.notNull().defaultTo(''))
        // JSON of the structured fields (an alarm's) the webhook sends; '' for none.
        .addColumn('payload', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        // queued: when to try; sending: when the claim lapses (another instance may then take it).
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('claimed_by', 'varchar(64)')
        .addColumn('vendor_status', 'integer')
        .addColumn('vendor_answer', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('last_error', 'varchar(500)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .addColumn('digest_id', 'bigint')
        .execute();
      // The worker's claim: due messages in order, a range of the pending ones only.
      await db.schema.createIndex('notify_message_due').on('notify_message').columns(['next_attempt_at', 'id']).where(sql.ref('state'), 'in', ['queued', 'sending']).execute();
      // A channel's messages by state: its dead letters (the count on the channel), the waiting ones a digest takes.
      await db.schema.createIndex('notify_message_channel').on('notify_message').columns(['channel_id', 'state', 'id']).execute();
      await db.schema.createIndex('notify_message_state').on('notify_message').columns(['state', 'id']).execute();
      await db.schema.createIndex('notify_message_created').on('notify_message').columns(['created_at', 'id']).execute();
      await db.schema.createIndex('notify_message_alarm').on('notify_message').columns(['alarm_id']).execute();
      await db.schema.createIndex('notify_message_digest').on('notify_message').columns(['digest_id']).execute();
      // At most one digest per channel gathers the messages waiting while it is throttled.
      await db.schema
        .createIndex('notify_message_open_digest')
        .on('notify_message')
        .columns(['channel_id'])
        .unique()
        .where(sql.ref('kind'), '=', 'digest')
        .where(sql.ref('state'), '=', 'queued')
        .execute();
    },
  };
}
