/**
 * Location alarms: when more than a configured share of a floor's or a building's devices (those
 * whose location is it or a room or floor under it) go offline within the hold-down window, they are
 * one alarm of that location (楼层断连 / 楼栋断连) with the devices' own alarms as its symptoms,
 * instead of an alarm each. A whole building is one building alarm, not one per floor. A device
 * behind a gateway that is down is its gateway's symptom and never counts here. Every raise has its
 * clear: once the share of silent devices is back at or under the threshold the location alarm
 * clears, and its devices still silent get alarms of their own.
 *
 * The alarm keeps a representative device of its location (the lowest id) in device_id, so every
 * reader that joins alarms to devices (data scope included: the device's hotel is the location's)
 * stays correct; its subject is location_id (migration 032).
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema';
import { ALARM_TYPE } from '../../../contract/constants';
import { idIn } from '../../lib/id-list';
import { announceAlarmEvent } from '../events';
import type { ChangeTally, RecordedAlarm } from './records';

export const LOCATION_ALARMS = {
  building: { type: ALARM_TYPE.buildingOffline, severity: 'critical', message: '楼栋断连：大部分设备同时离线' },
  floor: { type: ALARM_TYPE.floorOffline, severity: 'critical', message: '楼层断连：大部分设备同时离线' },
} as const;
export const LOCATION_ALARM_TYPES = [LOCATION_ALARMS.building.type, LOCATION_ALARMS.floor.type];
/** A symptom whose floor or building came back while the device itself stayed silent. */
export const LOCATION_PROMOTED_MESSAGE = '所在位置已恢复，设备仍无心跳';

type Kind = keyof typeof LOCATION_ALARMS;
export interface LocationGroup {
  kind: Kind;
  locationId: number;
  total: number;
  down: number;
  /** The representative device the alarm is attached to. */
  deviceId: number;
}

/** The share rule: enough devices, and strictly more than the share of them down. */
export const overThreshold = (app: FastifyInstance, group: { total: number; down: number }) =>
  group.total >= app.config.locationAlarm.minDevices && group.down * 100 > app.config.locationAlarm.sharePercent * group.total;

/**
 * Per floor and per building, how many devices it holds and how many of them are `down`, over the
 * devices that `where` picks (or all with a location). A device's floor and building come from its
 * location's kind: a room's parent is its floor, whose parent is the building.
 */
async function groupCounts(db: Kysely<Database>, down: RawBuilder<SqlBool>, buildingIds?: number[]): Promise<LocationGroup[]> {
  const building = sql`case l.kind when 'building' then l.id when 'floor' then l.parent_id else f.parent_id end`;
  const floor = sql`case l.kind when 'floor' then l.id when 'room' then l.parent_id else null end`;
  const only = buildingIds === undefined ? sql`` : sql`and ${building} in (${sql.join(buildingIds)})`;
  const { rows } = await sql<{ buildingId: number; floorId: number | null; total: number | string; down: number | string; deviceId: number }>`
    select g.building_id, g.floor_id, count(*) as total, sum(g.down) as down, min(g.id) as device_id
    from (
      select d.id, ${building} as building_id, ${floor} as floor_id, case when ${down} then 1 else 0 end as down
      from hotel_device d
      join hotel_device_presence on hotel_device_presence.id = d.id
      join hotel_location l on l.id = d.location_id
      left join hotel_location f on f.id = l.parent_id
      left join hotel_device_presence gp on gp.id = d.gateway_id
      where d.deleted_at is null ${only}
    ) as g
    group by g.building_id, g.floor_id`.execute(db);
  const groups = new Map<string, LocationGroup>();
  const add = (kind: Kind, locationId: number, row: (typeof rows)[number]) => {
    const key = `${kind}:${locationId}`;
    const group = groups.get(key) ?? { kind, locationId, total: 0, down: 0, deviceId: row.deviceId };
    group.total += Number(row.total);
    group.down += Number(row.down);
    group.deviceId = Math.min(group.deviceId, Number(row.deviceId));
    groups.set(key, group);
  };
  for (const row of rows) {
    if (row.buildingId === null) continue;
    add('building', Number(row.buildingId), row);
    if (row.floorId !== null) add('floor', Number(row.floorId), row);
  }
  return [...groups.values()];
}

/** A device behind a gateway that is down is its gateway's symptom, never a location's. */
const notBehindDownGateway = sql<SqlBool>`(gp.online is null or gp.online = 1)`;

/**
 * Before the sweep flips its stale devices (`stale`, over the unaliased hotel_device_presence):
 * raises the alarm of every floor and building over the threshold, counting the devices about to go
 * offline and those that went offline within the hold-down window, and folds the alarms of the
 * latter under it. A building over it takes its floors with it. Answers whether any location alarm
 * is active, so the flips look for their cause only then.
 */
export async function raiseLocationAlarms(app: FastifyInstance, stale: RawBuilder<SqlBool>, now: number, raisedTally: ChangeTally<RecordedAlarm<{ id: number }>>): Promise<number> {
  const holdStart = now - app.config.locationAlarm.holdDownMs;
  const down = sql<SqlBool>`${notBehindDownGateway} and (${stale} or (hotel_device_presence.online = 0 and hotel_device_presence.offline_since >= ${sql.lit(holdStart)}))`;
  const groups = (await groupCounts(app.db, down)).filter((group) => overThreshold(app, group));
  const buildings = new Set(groups.filter((group) => group.kind === 'building').map((group) => group.locationId));
  const floorsOf = buildings.size === 0 ? new Map<number, number>() : await floorParents(app.db, [...buildings]);
  const raised = groups.filter((group) => group.kind === 'building' || !buildings.has(floorsOf.get(group.locationId) ?? -1));
  let count = 0;
  for (const group of raised) {
    await app.db.transaction().execute(async (trx) => {
      const { id, created } = await raiseOne(app, trx, group, now);
      // The run's operation-log record names it (after the sweep's transactions).
      if (created) raisedTally.add([{ id, type: LOCATION_ALARMS[group.kind].type, device: { id: group.deviceId }, location: group.locationId }]);
      await foldRecent(app, trx, group, id, holdStart);
      if (group.kind === 'building') {
        // Floors raised before their whole building went: symptoms of the building now.
        await trx
          .updateTable('hotelAlarm')
          .set({ causeId: id })
          .where('type', '=', LOCATION_ALARMS.floor.type)
          .where('clearedAt', 'is', null)
          .where('causeId', 'is', null)
          .where('locationId', 'in', trx.selectFrom('hotelLocation').select('id').where('parentId', '=', group.locationId))
          .execute();
      }
    });
    count += 1;
  }
  return count;
}

async function floorParents(db: Kysely<Database>, buildingIds: number[]): Promise<Map<number, number>> {
  const rows = await db.selectFrom('hotelLocation').select(['id', 'parentId']).where('kind', '=', 'floor').where('parentId', 'in', buildingIds).execute();
  return new Map(rows.map((row) => [row.id, row.parentId]));
}

/** The location's active alarm (repeated: count + 1), or a new one, announced as raised. */
async function raiseOne(app: FastifyInstance, db: Kysely<Database>, group: LocationGroup, at: number): Promise<{ id: number; created: boolean }> {
  const { type, severity, message } = LOCATION_ALARMS[group.kind];
  const active = await db
    .selectFrom('hotelAlarm')
    .select('id')
    .where('locationId', '=', group.locationId)
    .where('type', '=', type)
    .where('clearedAt', 'is', null)
    .executeTakeFirst();
  if (active) {
    await db
      .updateTable('hotelAlarm')
      .set((eb) => ({ count: eb('count', '+', 1), lastAt: at }))
      .where('id', '=', active.id)
      .execute();
    return { id: Number(active.id), created: false };
  }
  const row = await db
    .insertInto('hotelAlarm')
    .values({
      deviceId: group.deviceId,
      locationId: group.locationId,
      type,
      severity,
      message: `${message}（${group.down}/${group.total} 台）`,
      startedAt: at,
      lastAt: at,
      count: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await announceAlarmEvent(db, app.dialect, { event: 'raise', type, deviceIds: [group.deviceId], at });
  return { id: Number(row.id), created: true };
}

/** The own offline alarms, raised within the hold-down window, of the location's devices: its symptoms now. */
async function foldRecent(app: FastifyInstance, db: Kysely<Database>, group: LocationGroup, causeId: number, holdStart: number): Promise<void> {
  const devices = await devicesUnder(db, group.locationId);
  if (devices.length === 0) return;
  await db
    .updateTable('hotelAlarm')
    .set({ causeId })
    .where(idIn(app.dialect, 'deviceId', devices))
    .where('type', '=', ALARM_TYPE.offline)
    .where('clearedAt', 'is', null)
    .where('causeId', 'is', null)
    .where('startedAt', '>=', holdStart)
    .execute();
}

/** The devices whose location is this one or under it (two levels at most: building -> floor -> room). */
async function devicesUnder(db: Kysely<Database>, locationId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('hotelDevice as d')
    .innerJoin('hotelLocation as l', 'l.id', 'd.locationId')
    .leftJoin('hotelLocation as f', 'f.id', 'l.parentId')
    .select('d.id')
    .where('d.deletedAt', 'is', null)
    .where((eb) => eb.or([eb('l.id', '=', locationId), eb('l.parentId', '=', locationId), eb('f.parentId', '=', locationId)]))
    .execute();
  return rows.map((row) => row.id);
}

/**
 * The active location alarm each of these devices falls under (the topmost: a floor folded under its
 * building answers the building), by device id.
 */
export async function locationAlarmsOf(app: FastifyInstance, db: Kysely<Database>, deviceIds: number[]): Promise<Map<number, number>> {
  const rows = await locationAlarmRows(app, db, deviceIds, true);
  return new Map(rows.map((row) => [row.id, Number(row.alarmId)]));
}

/** Whether any location alarm is active: one entry of the partial index, so most flips skip the join. */
export const anyLocationAlarm = async (db: Kysely<Database>) =>
  (await db.selectFrom('hotelAlarm').select('id').where('locationId', 'is not', null).where('clearedAt', 'is', null).limit(1).executeTakeFirst()) !== undefined;

/** Every active location alarm of these devices' floors and buildings, folded or not. */
export async function activeLocationAlarms(app: FastifyInstance, db: Kysely<Database>, deviceIds: number[]): Promise<number[]> {
  if (!(await anyLocationAlarm(db))) return [];
  const rows = await locationAlarmRows(app, db, deviceIds, false);
  return [...new Set(rows.map((row) => Number(row.alarmId)))];
}

const locationAlarmRows = (app: FastifyInstance, db: Kysely<Database>, deviceIds: number[], causesOnly: boolean) =>
  db
    .selectFrom('hotelDevice as d')
    .innerJoin('hotelLocation as l', 'l.id', 'd.locationId')
    .leftJoin('hotelLocation as f', 'f.id', 'l.parentId')
    .innerJoin('hotelAlarm as a', (join) =>
      join
        .on('a.clearedAt', 'is', null)
        .on('a.type', 'in', LOCATION_ALARM_TYPES)
        .on((eb) => eb.or([eb('a.locationId', '=', eb.ref('l.id')), eb('a.locationId', '=', eb.ref('l.parentId')), eb('a.locationId', '=', eb.ref('f.parentId'))])),
    )
    .select(['d.id', 'a.id as alarmId'])
    .$if(causesOnly, (q) => q.where('a.causeId', 'is', null))
    .where(idIn(app.dialect, 'd.id', deviceIds))
    .execute();

/**
 * Clears the active location alarms (of these ids) whose location has its share of silent devices
 * back at or under the threshold; answers the cleared alarms (with their representative devices and
 * locations, for the run's records), whose symptoms the caller promotes.
 */
export async function clearRecoveredLocations(
  app: FastifyInstance,
  db: Kysely<Database>,
  alarmIds: number[],
  at: number,
): Promise<Array<{ id: number; type: string; deviceId: number; locationId: number }>> {
  if (alarmIds.length === 0) return [];
  const alarms = await db
    .selectFrom('hotelAlarm as a')
    .innerJoin('hotelLocation as l', 'l.id', 'a.locationId')
    .select(['a.id', 'a.locationId', 'l.kind', 'l.parentId'])
    .where('a.id', 'in', alarmIds)
    .where('a.clearedAt', 'is', null)
    .execute();
  if (alarms.length === 0) return [];
  const buildingIds = [...new Set(alarms.map((alarm) => (alarm.kind === 'building' ? alarm.locationId! : alarm.parentId)))];
  const counts = await groupCounts(db, sql<SqlBool>`${notBehindDownGateway} and hotel_device_presence.online = 0`, buildingIds);
  const byLocation = new Map(counts.map((group) => [group.locationId, group]));
  const recovered = alarms.filter((alarm) => {
    const group = byLocation.get(alarm.locationId!);
    return group === undefined || !overThreshold(app, group);
  });
  if (recovered.length === 0) return [];
  const cleared = await db
    .updateTable('hotelAlarm')
    .set({ clearedAt: at, clearedBy: '系统' })
    .where(
      'id',
      'in',
      recovered.map((alarm) => alarm.id),
    )
    .where('clearedAt', 'is', null)
    .returning(['id', 'type', 'deviceId', 'locationId'])
    .execute();
  const rows = cleared.map((row) => ({ id: Number(row.id), type: row.type, deviceId: row.deviceId, locationId: row.locationId! }));
  await announceAlarmEvent(
    db,
    app.dialect,
    {
      event: 'clear',
      alarmIds: rows.map((row) => row.id),
      at,
    },
    '系统',
  );
  return rows;
}
