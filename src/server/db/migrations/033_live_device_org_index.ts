/**
 * A scoped device list reads a unit's devices by (org_id, id), in id order, and leaves out deleted
 * devices (migration 026). The index of 022 holds every device, so each entry it gave still had its
 * row read for `deleted_at`: a hotel's page 1 counted its 4,000 devices with 4,000 row reads, slower
 * than the unscoped list that counts the table in row order. Keeping only live devices in the index
 * answers the scoped count and page from the index alone (and deleted devices drop out of it).
 */
import { sql, type Kysely } from 'kysely';

export const liveDeviceOrgIndex = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('hotel_device_org').execute();
    await db.schema.createIndex('hotel_device_org_live').on('hotel_device').columns(['org_id', 'id']).where(sql.ref('deleted_at'), 'is', null).execute();
  },
};
