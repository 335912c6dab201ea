/**
 * A device with its presence (hotel_device_presence, migration 017: online, last seen, since when),
 * as the screens and the audit read it. Writes go to the presence table itself (heartbeats, the
 * offline sweep, an edit that disables a device); every device has its row.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../../db/schema';
import { inScope, unitsOfScope, type DataScope } from '../../../lib/data-scope';

/** A device's hotel is `org_id`; under 仅本人 the caller sees the devices they created. */
export const DEVICE_SCOPE = { org: 'hotelDevice.orgId', self: 'hotelDevice.createdBy' };

/** The devices of a scope, deleted ones left out, before any select. */
export const scopedDevices = (db: Kysely<Database>, scope: DataScope) =>
  db.selectFrom('hotelDevice').where('hotelDevice.deletedAt', 'is', null).$call(inScope(scope, DEVICE_SCOPE));

/** Rows a page read unit by unit may read at most (units x rows up to the page's end); past it one scan serves better. */
export const UNIT_BY_UNIT_ROWS = 2_000;

/**
 * The ids of a page in id order (`limit` after `offset`, or after `seek`) of a scope of several
 * units, read unit by unit on PostgreSQL: a LIMITed walk of the (org_id, id) index per unit, the
 * walks merged. With the scope's single predicate the planner either read every row of the units
 * and sorted them, or walked the table in id order past other units' rows (at the bench's reduced
 * scale 16,000 before a region's first device). Null when one predicate serves: another scope, or
 * a page so deep that every unit would be read that far.
 */
export function deviceIdsUnitByUnit(db: Kysely<Database>, scope: DataScope, limit: number, offset: number, seek: Expression<SqlBool> | null) {
  const units = unitsOfScope(scope);
  if (units === null || scope.dialect !== 'postgres' || units.length * (offset + limit) > UNIT_BY_UNIT_ROWS) return null;
  return db
    .selectFrom(sql<{ orgId: number }>`(select unnest(${units}::int[]) as org_id)`.as('unit'))
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('hotelDevice')
          .select('hotelDevice.id')
          .where('hotelDevice.deletedAt', 'is', null)
          .whereRef('hotelDevice.orgId', '=', 'unit.orgId')
          .$if(seek !== null, (q) => q.where(seek!))
          .orderBy('hotelDevice.id')
          .limit(offset + limit)
          .as('first'),
      (join) => join.onTrue(),
    )
    .select('first.id')
    .orderBy('first.id')
    .limit(limit)
    .offset(offset);
}

/**
 * How many devices a scope's whole list holds, summed over its units' live counts (migration 033)
 * rather than counted device by device; null under 仅本人, whose devices are the caller's, not a unit's.
 */
export async function liveDeviceCount(db: Kysely<Database>, scope: DataScope): Promise<number | null> {
  if (scope.kind === 'self') return null;
  const row = await db
    .selectFrom('hotelDeviceUnitCount')
    .select((eb) => eb.fn.sum<number | string | null>('hotelDeviceUnitCount.live').as('n'))
    .$call(inScope(scope, { org: 'hotelDeviceUnitCount.orgId' }))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export const PRESENCE_COLUMNS = ['hotelDevicePresence.online', 'hotelDevicePresence.lastSeenAt', 'hotelDevicePresence.onlineSince', 'hotelDevicePresence.offlineSince'] as const;

/** Devices of the scope joined to their presence (the presence's id is the device's), before any select. */
export const devicesJoinedToPresence = (db: Kysely<Database>, scope: DataScope) =>
  scopedDevices(db, scope).innerJoin('hotelDevicePresence', 'hotelDevicePresence.id', 'hotelDevice.id');

/** Devices with their presence, every column of both. */
export const devicesWithPresence = (db: Kysely<Database>, scope: DataScope) => devicesJoinedToPresence(db, scope).selectAll('hotelDevice').select(PRESENCE_COLUMNS);

export type DeviceWithPresence = Awaited<ReturnType<ReturnType<typeof devicesWithPresence>['executeTakeFirstOrThrow']>>;

/** One device of the scope with its presence, or undefined (out of scope looks like absent). */
export const deviceWithPresence = (db: Kysely<Database>, scope: DataScope, id: number) => devicesWithPresence(db, scope).where('hotelDevice.id', '=', id).executeTakeFirst();

/**
 * Marks a device offline without a transition: a disabled device's heartbeats are refused, so it
 * is offline from now on (an edit or an import that disables it, in its own transaction).
 */
export const setOfflineWhenDisabled = (db: Kysely<Database>, id: number) => db.updateTable('hotelDevicePresence').set({ online: 0 }).where('id', '=', id).execute();
