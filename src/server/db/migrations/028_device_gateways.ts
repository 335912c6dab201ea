/**
 * Gateways (issue 27): a device may speak for others through a gateway, a device of type 网关
 * (`gateway`) that carries its children's heartbeats over one connection. `gateway_id` names a
 * child's gateway (null: the device reports for itself). Devices are never deleted, so the column
 * needs no cascade.
 *
 * Two indexes: a gateway's children (its batches are checked against them, and its going offline
 * marks them unreachable), and the gateways themselves, which the offline sweep takes first so
 * their children are known to be behind a gateway that is down (a partial index: a hotel group has
 * a gateway per fifty devices, and the sweep reads only those).
 */
import { sql, type Kysely } from 'kysely';

export const deviceGateways = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('hotel_device').addColumn('gateway_id', 'integer').execute();
    await db.schema.createIndex('hotel_device_gateway_children').on('hotel_device').columns(['gateway_id', 'id']).where(sql.ref('gateway_id'), 'is not', null).execute();
    await db.schema.createIndex('hotel_device_gateways').on('hotel_device').column('id').where(sql.ref('type'), '=', sql.lit('gateway')).execute();
  },
};
