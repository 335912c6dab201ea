/**
 * The offline sweep reads online devices in (last_seen_at, id) order, a chunk at a time, each
 * starting after the last one picked (services/device-status/offline-sweep.ts). SQLite's index on
 * (online, last_seen_at) already ends in the rowid, which is the id, so it serves that order as it
 * is. PostgreSQL's does not: devices that went quiet at the same moment (a mass outage: a million
 * of them) sit in heap order, and every chunk sorted them all again by id: about 0.1 s a chunk of
 * 1,000 at a million devices, minutes in all. With the id in the index each chunk is one index range.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

export function sweepOrderIndex(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await db.schema.createIndex('hotel_device_online_seen').on('hotel_device').columns(['online', 'last_seen_at', 'id']).execute();
      await db.schema.dropIndex('hotel_device_online').execute();
    },
  };
}
