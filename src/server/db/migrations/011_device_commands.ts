/**
 * Remote commands to devices over MQTT (重启): one row per command sent, its status moving from
 * sent to acked (the device answered) or timed_out. The 重启设备 resource itself arrives with the
 * built-in catalogue (services/builtins/sync.ts) at the next start, and the built-in admin role holds every
 * grant, so nothing else needs migrating.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

export function deviceCommands(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const table = db.schema.createTable('hotel_device_command');
      await (dialect === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
        .addColumn('device_id', 'integer', (c) => c.notNull())
        .addColumn('command', 'varchar(32)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('sent_at', 'bigint', (c) => c.notNull())
        .addColumn('acked_at', 'bigint')
        .addColumn('requested_by', 'integer', (c) => c.notNull())
        .execute();
      // The latest command of a device; the pending ones the timeout looks at.
      await db.schema.createIndex('hotel_device_command_device').on('hotel_device_command').columns(['device_id', 'id']).execute();
      await db.schema.createIndex('hotel_device_command_status').on('hotel_device_command').columns(['status', 'sent_at']).execute();
    },
  };
}
