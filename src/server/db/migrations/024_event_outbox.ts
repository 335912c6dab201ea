/**
 * The live event stream (issue 27): the outbox of events (event_outbox, a row per event with an
 * increasing id, written in the transaction of the change it announces; the stream reads it in id
 * order and a reconnecting console resumes from the last id it saw) and the single-use tickets a
 * browser opens the stream with (event_ticket: only the ticket's hash, so any instance can redeem
 * it and a leaked table reveals none).
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

export function eventOutbox(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const table = db.schema.createTable('event_outbox');
      await (dialect === 'postgres' ? table.addColumn('id', 'bigserial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
        .addColumn('kind', 'varchar(40)', (c) => c.notNull())
        // JSON of the event's fields.
        .addColumn('payload', 'text', (c) => c.notNull())
        // The API path of the resource a receiver's role must hold; null: every signed-in receiver.
        .addColumn('resource', 'varchar(100)')
        // Only the stream of this session receives it (its end); null: every permitted receiver.
        .addColumn('session_id', 'integer')
        // The organisation unit the data belongs to, for the data-scope filter; null: unscoped.
        .addColumn('org_id', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('event_outbox_created').on('event_outbox').columns(['created_at']).execute();

      await db.schema
        .createTable('event_ticket')
        .addColumn('ticket_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('session_id', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('event_ticket_expires').on('event_ticket').columns(['expires_at']).execute();
    },
  };
}
