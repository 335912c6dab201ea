/**
 * Hourly samples of how many devices are online (written by the built-in task device.onlineSample),
 * so the panel can draw the last 24 hours: the devices table only knows the present.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

export function deviceOnlineSample(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const table = db.schema.createTable('hotel_device_online_sample');
      await (dialect === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
        .addColumn('sampled_at', 'bigint', (c) => c.notNull())
        .addColumn('online', 'integer', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('hotel_device_online_sample_at').on('hotel_device_online_sample').column('sampled_at').execute();
    },
  };
}
