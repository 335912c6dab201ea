/**
 * Deleting a device registered by mistake keeps its history (issue 25): the row stays, stamped with
 * when it was deleted, so its status history, alarms and operation-log records still name it by
 * id, name and serial number. A deleted device is left out of every list, count and lookup, and
 * its key and presence are gone (docs/api/hotel.md, device removal).
 */
import type { Kysely } from 'kysely';

export const deviceDeletedAt = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('hotel_device').addColumn('deleted_at', 'bigint').execute();
  },
};
