/**
 * The one place where a device's online/offline change takes effect beyond the flag itself. The
 * write paths (the heartbeat that brings a device back, the offline sweep) detect the flip in the
 * database, exactly once per change, set the flag with `flipTo` (which also stamps online_since /
 * offline_since in that same UPDATE) and hand the flipped devices here. This module decides what the
 * change means: a row per device in hotel_device_transition, the device's 'offline' alarm raised (or,
 * while one is active, repeated) or cleared, and records in the operation log (one per device, or a
 * summary for a mass change). Everything is set-based, in batches: a sweep may flip a million
 * devices at once, a chunk at a time.
 *
 * A flip and what it means are one transaction: the caller sets the flag in `db`, a transaction,
 * and this module writes the history rows and alarms in it too. Should any of it fail (or the
 * process die) the flag is as it was, and the next heartbeat or sweep flips it again, so a device
 * never changes state without its history row and alarm.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema';
import { ALARM_TYPE } from '../../../contract/constants';
import { idIn, idRows, idValueRows, valueRows } from '../../lib/id-list';
import { announceAlarmEvent, GUARD, publishByUnit, unitsOf } from '../events';
import { ALARM_NOTIFICATION_KIND, eventPayload, wakeStreams } from '../events/outbox';
import { anyRuleEnabled, markerPayload } from '../notification/alarm-events';
import { ChangeTally, recordAlarmEvents, recordDeviceStatus, type RecordedAlarm, type StatusDevice } from './records';
import { LocationIndex } from '../location-paths';
import { activeLocationAlarms, clearRecoveredLocations, LOCATION_ALARM_TYPES, LOCATION_PROMOTED_MESSAGE, locationAlarmsOf } from './location-alarms';

/** unreachable is not passed in: it is what an offline flip records for a device behind a gateway that is down. */
export type TransitionCause = 'heartbeat' | 'sweep' | 'disconnect';

/**
 * A flipped device: with its name and serial number where the caller has them (a heartbeat looked
 * them up), else only its id (the sweep), named when its run's records are written.
 */
export type TransitionDevice = Pick<StatusDevice, 'id'> & Partial<StatusDevice>;

export interface DeviceTransitions {
  devices: TransitionDevice[];
  /** 1: came online; 0: went offline. */
  to: 0 | 1;
  cause: TransitionCause;
  at: number;
  /** Going offline: whether a location alarm is active, so the devices may be its symptoms (location-alarms.ts). */
  locations?: boolean;
}

/** What a record says in place of the serial number of a device deleted before the record was written. */
export const DELETED_DEVICE = '已删除';
/** Who clears an alarm the device's own recovery ended. */
export const SYSTEM_ACTOR = '系统';
export const OFFLINE_ALARM = { type: ALARM_TYPE.offline, severity: 'major', message: '设备心跳超时，已离线' } as const;
/** The status history's cause of a device that went offline behind a gateway that is down (不可达). */
export const UNREACHABLE = 'unreachable';
export const UNREACHABLE_MESSAGE = '所属网关离线，设备不可达';
/** A symptom whose gateway came back while the device itself stayed silent. */
export const PROMOTED_MESSAGE = '所属网关已恢复，设备仍无心跳';
/**
 * Devices per statement: their ids travel as one bound parameter, so this bounds only the work per
 * statement (the sweep's chunks are this size too).
 */
const BATCH = 1000;

/** The columns a flip sets, in the write path's own UPDATE (no second statement per flip). */
export const flipTo = (to: 0 | 1, at: number) => (to === 1 ? { online: 1, onlineSince: at } : { online: 0, offlineSince: at });

function* batches<T>(items: T[]): Generator<T[]> {
  for (let start = 0; start < items.length; start += BATCH) yield items.slice(start, start + BATCH);
}

/**
 * The operation-log side of a run of transitions (one heartbeat's flip, or a whole sweep in many
 * chunks), written once when the run ends, after its transactions: a sweep of a million devices is
 * one summary, not one per chunk. (A run cut short by a crash keeps the history rows and alarms of
 * the chunks it committed; only its records are lost.)
 */
export class TransitionRecords {
  readonly devices = new ChangeTally<TransitionDevice>();
  readonly raised = new ChangeTally<RecordedAlarm<TransitionDevice>>();
  readonly cleared = new ChangeTally<RecordedAlarm<TransitionDevice>>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly to: 0 | 1,
    private readonly at: number,
  ) {}

  /**
   * Whether more changes can no longer alter which devices and alarms the records itemize: each
   * tally a run of this direction adds to keeps no more items (they only count).
   */
  get settled(): boolean {
    return this.devices.full && this.raised.full && (this.to === 0 || this.cleared.full);
  }

  async write(): Promise<void> {
    const named = await this.names();
    const locations = await LocationIndex.of(
      this.app.db,
      [...this.raised.items, ...this.cleared.items].map((alarm) => alarm.location ?? null),
    );
    const alarms = (tally: ChangeTally<RecordedAlarm<TransitionDevice>>) =>
      tally.map(({ location, ...alarm }) => ({
        ...alarm,
        device: named(alarm.device),
        ...(location === undefined ? {} : { location: locations.pathOf(location) }),
      }));
    await recordDeviceStatus(this.app, this.devices.map(named), this.to === 1 ? 0 : 1, this.to, this.at);
    await recordAlarmEvents(this.app, alarms(this.raised), 'raised', this.at);
    await recordAlarmEvents(this.app, alarms(this.cleared), 'cleared', this.at);
    // The run's messages were queued in its transactions, now committed: send them at once.
    if (this.raised.total + this.cleared.total > 0) this.app.notifications.wake();
  }

  /**
   * Names for the devices the records may itemize (at most AUDIT_ITEMIZED per tally), read in one
   * query: a sweep passes ids only, since reading a thousand names per chunk cost a mass outage of a
   * million devices half a second, and all but the first hundred are only counted.
   */
  private async names(): Promise<(device: TransitionDevice) => StatusDevice> {
    const items = [...this.devices.items, ...this.raised.items.map((alarm) => alarm.device), ...this.cleared.items.map((alarm) => alarm.device)];
    const unnamed = [...new Set(items.filter((device) => device.name === undefined || device.sn === undefined).map((device) => device.id))];
    const read =
      unnamed.length === 0
        ? []
        : await this.app.db
            .selectFrom('hotelDevice')
            .select(['id', 'name', 'sn'])
            .where(idIn(this.app.dialect, 'id', unnamed))
            .execute();
    const byId = new Map(read.map((device) => [device.id, device]));
    return (device) => {
      const stored = byId.get(device.id);
      // A device deleted since its flip keeps its id in the record: "#12（已删除）".
      return { id: device.id, name: device.name ?? stored?.name ?? `#${device.id}`, sn: device.sn ?? stored?.sn ?? DELETED_DEVICE };
    };
  }
}

/**
 * How many of these devices' active offline alarms were raised at `at` (count 1: not repeats).
 * Found by device through the active-alarm index; the tests of the alarm's own columns are written
 * so that no index serves them: every alarm a mass outage raises starts at the same `at`, and
 * PostgreSQL, on statistics from before the outage, read them all through the started-at index
 * once per chunk (a sweep of 120,000 devices 3.1 -> 5.1 s).
 */
export const alarmsRaisedAt = (app: FastifyInstance, db: Kysely<Database>, deviceIds: number[], at: number) =>
  db
    .selectFrom('hotelAlarm')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(idIn(app.dialect, 'deviceId', deviceIds))
    .where('type', '=', OFFLINE_ALARM.type)
    .where('clearedAt', 'is', null)
    .where(sql<number>`+${sql.ref('startedAt')}`, '=', at)
    .where(sql<number>`+${sql.ref('count')}`, '=', 1)
    .where('causeId', 'is', null);

/**
 * The active offline alarm of each of these gateways that is offline, by gateway. Found from the
 * gateways (a handful per chunk), never by a join from their children or from the alarms: on
 * statistics from before the outage (no active alarm, no child) both databases drove such joins
 * from the children index or the active alarms, re-read per chunk (SQLite 75 ms, PostgreSQL
 * 0.3-2 s a chunk).
 */
async function gatewayAlarms(app: FastifyInstance, db: Kysely<Database>, gatewayIds: number[]): Promise<Map<number, number>> {
  if (gatewayIds.length === 0) return new Map();
  // The alarm as a subquery per gateway, so no plan can turn it into a scan of the active alarms.
  const rows = await db
    .selectFrom('hotelDevicePresence as gp')
    .select((eb) => [
      'gp.id',
      eb.selectFrom('hotelAlarm as g').select('g.id').whereRef('g.deviceId', '=', 'gp.id').where('g.type', '=', OFFLINE_ALARM.type).where('g.clearedAt', 'is', null).as('alarmId'),
    ])
    .where(idIn(app.dialect, 'gp.id', gatewayIds))
    // `+online`: found by id, never through the (online, last_seen_at) index, which statistics from
    // before the outage (hardly a device offline) made PostgreSQL read for every offline device.
    .where(sql<number>`+${sql.ref('gp.online')}`, '=', 0)
    .execute();
  return new Map(rows.flatMap((row) => (row.alarmId === null ? [] : [[row.id, Number(row.alarmId)] as const])));
}

/**
 * The active offline alarm of the gateway of each of these devices whose gateway is offline: the
 * cause of their going offline (they are unreachable behind it), by device id.
 */
async function gatewayAlarmsOf(app: FastifyInstance, db: Kysely<Database>, deviceIds: number[]): Promise<Map<number, number>> {
  // By id, with no test of gateway_id that would let the children index (empty in old statistics) serve it.
  const devices = await db
    .selectFrom('hotelDevice')
    .select(['id', 'gatewayId'])
    .where(idIn(app.dialect, 'id', deviceIds))
    .execute();
  const gatewayOf = new Map(devices.flatMap((device) => (device.gatewayId === null ? [] : [[device.id, device.gatewayId] as const])));
  const alarms = await gatewayAlarms(app, db, [...new Set(gatewayOf.values())]);
  return new Map([...gatewayOf].flatMap(([id, gatewayId]) => (alarms.has(gatewayId) ? [[id, alarms.get(gatewayId)!] as const] : [])));
}

/**
 * An alarm raised again while its device's is still active repeats that one: the partial unique
 * index (device_id, type) where cleared_at is null, also when two instances raise it at once.
 */
const REPEAT_ACTIVE_ALARM = sql`on conflict (device_id, type) where cleared_at is null do update set count = hotel_alarm.count + 1, last_at = excluded.last_at`;

/**
 * What going offline means for these devices, just flipped, whose gateway is down (`causes`: its
 * active offline alarm, by device): a 不可达 row in their status history, and an alarm each folded
 * under the gateway's as its symptom (not counted, not told to causes-only rules).
 */
async function recordUnreachable(app: FastifyInstance, db: Kysely<Database>, causes: Map<number, number>, at: number): Promise<void> {
  const ids = [...causes.keys()];
  await sql`insert into hotel_device_transition (device_id, online, at, cause) select d.id, 0, ${at}, ${UNREACHABLE} from (${idRows(app.dialect, ids)}) as d`.execute(db);
  const { type, severity } = OFFLINE_ALARM;
  await sql`
    insert into hotel_alarm (device_id, type, severity, message, started_at, last_at, count, cause_id)
    select d.id, ${type}, ${severity}, ${UNREACHABLE_MESSAGE}, ${at}, ${at}, 1, d.value from (${idValueRows(app.dialect, ids, [...causes.values()])}) as d where true
    ${REPEAT_ACTIVE_ALARM}`.execute(db);
}

/** Takes a chunk's stale children of `gatewayIds` offline in `db`, answering how many (see takeChildrenOffline). */
type ChildrenTaker = (app: FastifyInstance, db: Kysely<Database>, gatewayIds: number[], stale: RawBuilder<SqlBool>, at: number, records: TransitionRecords) => Promise<number>;

/**
 * PostgreSQL: the whole of taking a chunk's children offline in one statement from the gateway
 * index: the UPDATE flips the stale children, and from what it returns the same statement writes
 * their 不可达 history rows, their symptom alarms under their gateway's, the live events (one
 * device-status and one alarm-raised per unit) and, when a rule may send something, the
 * notification marker; it answers a count (and the ids while the records still itemize). The rows
 * never travel to the server and back (a chunk's thousands of children parsed, mapped and sent
 * again as parameters held the event loop, and the heartbeats with it). The UPDATE locks the
 * children, so a heartbeat's flush of one of them waits for this transaction and then finds it
 * offline, and a child heard from meanwhile is no longer stale when its lock comes.
 */
const takeChildrenOfflineInSql: ChildrenTaker = async (app, db, gatewayIds, stale, at, records) => {
  const { type, severity } = OFFLINE_ALARM;
  const notify = await anyRuleEnabled(db);
  const itemize = !records.devices.full;
  const payloads = childEventPayloads(type, at);
  // The gateways' alarms (a handful), each child's looked up by its gateway in one value read once
  // per statement: a join of the children with them, planned on statistics from before the outage,
  // re-read the gateways once per child (6,860 children: 14 s).
  const causes = Object.fromEntries(await gatewayAlarms(app, db, gatewayIds));
  const { rows } = await sql<{ n: number; ids: number[] | null }>`
    with flipped as (
      update hotel_device_presence set online = 0, offline_since = ${at}
      from hotel_device
      where hotel_device.id = hotel_device_presence.id
        and ${idIn(app.dialect, 'hotel_device.gateway_id', gatewayIds)}
        and hotel_device.deleted_at is null
        and ${stale}
      returning hotel_device_presence.id, hotel_device.org_id, hotel_device.gateway_id
    ),
    history as (
      insert into hotel_device_transition (device_id, online, at, cause) select id, 0, ${at}, ${UNREACHABLE} from flipped
    ),
    symptoms as (
      insert into hotel_alarm (device_id, type, severity, message, started_at, last_at, count, cause_id)
      select f.id, ${type}, ${severity}, ${UNREACHABLE_MESSAGE}, ${at}, ${at}, 1, ((select ${JSON.stringify(causes)}::jsonb) ->> f.gateway_id::text)::bigint from flipped f
      ${REPEAT_ACTIVE_ALARM}
      returning id, count
    ),
    units as (
      select org_id, string_agg(id::text, ',' order by id) as ids from flipped group by org_id
    ),
    events as (
      insert into event_outbox (kind, payload, resource, session_id, org_id, created_at)
      select kind, payload, resource, null, org_id, ${Date.now()}::bigint from (
        select 1 as part, org_id, 'device-status'::text as kind, ${payloads.status[0]}::text || ids || ${payloads.status[1]}::text as payload, ${GUARD['device-status']}::text as resource from units
        union all
        select 2, null, ${ALARM_NOTIFICATION_KIND}::text, ${payloads.marker[0]}::text || string_agg(id::text, ',' order by id) || ${payloads.marker[1]}::text, null
        from symptoms where ${notify}::boolean and count = 1 having count(*) > 0
        union all
        select 3, org_id, 'alarm-raised', ${payloads.raised[0]}::text || ids || ${payloads.raised[1]}::text, ${GUARD['alarm-raised']}::text from units
      ) as e order by part, org_id
    )
    select count(*)::int as n, case when ${itemize}::boolean then array_agg(id order by id) end as ids from flipped`.execute(db);
  const { n, ids } = rows[0];
  if (n === 0) return 0;
  await wakeStreams(db, app.dialect);
  if (ids) records.devices.add(ids.map((id) => ({ id })));
  else records.devices.addCount(n);
  return n;
};

/**
 * SQLite: the same writes as takeChildrenOfflineInSql, each its own statement (SQLite has no
 * UPDATE in a WITH), all of them reading the chunk's children from a temporary table filled from
 * the gateway index, so the rows never reach the event loop: only a count comes back (and the ids
 * while the records still itemize). Each child's cause (its gateway's alarm) is put beside it as
 * the table is filled, from a second temporary table of the chunk's gateways' alarms: looked up
 * per child by a subquery (the gateway's presence, then its alarm) it was 40 % of the symptom
 * alarms' statement (a mass outage of a million devices: 1.46 -> 0.83 s).
 */
const takeChildrenOfflineThroughTemp: ChildrenTaker = async (app, db, gatewayIds, stale, at, records) => {
  const { type, severity } = OFFLINE_ALARM;
  await sql`create temp table if not exists sweep_children (id integer primary key, org_id integer, gateway_id integer, cause_id integer)`.execute(db);
  await sql`create temp table if not exists sweep_gateway_causes (gateway_id integer primary key, alarm_id integer)`.execute(db);
  const causes = await gatewayAlarms(app, db, gatewayIds);
  await sql`
    insert into temp.sweep_gateway_causes (gateway_id, alarm_id)
    select gateway_id, alarm_id from (${valueRows(app.dialect, { gateway_id: 'int', alarm_id: 'bigint' }, [...causes])})`.execute(db);
  const filled = await sql`
    insert into temp.sweep_children (id, org_id, gateway_id, cause_id)
    select hotel_device.id, hotel_device.org_id, hotel_device.gateway_id, cause.alarm_id
    from hotel_device join hotel_device_presence on hotel_device_presence.id = hotel_device.id
    left join temp.sweep_gateway_causes cause on cause.gateway_id = hotel_device.gateway_id
    where ${idIn(app.dialect, 'hotel_device.gateway_id', gatewayIds)} and hotel_device.deleted_at is null and ${stale}`.execute(db);
  const n = Number(filled.numAffectedRows ?? 0);
  if (n > 0) {
    await sql`update hotel_device_presence set online = 0, offline_since = ${at} where id in (select id from temp.sweep_children)`.execute(db);
    await sql`insert into hotel_device_transition (device_id, online, at, cause) select id, 0, ${at}, ${UNREACHABLE} from temp.sweep_children`.execute(db);
    await sql`
      insert into hotel_alarm (device_id, type, severity, message, started_at, last_at, count, cause_id)
      select c.id, ${type}, ${severity}, ${UNREACHABLE_MESSAGE}, ${at}, ${at}, 1, c.cause_id from temp.sweep_children c where true
      ${REPEAT_ACTIVE_ALARM}`.execute(db);
    const notify = await anyRuleEnabled(db);
    const payloads = childEventPayloads(type, at);
    // Each unit's ids grouped and joined once for both of its events (two grouped passes over the
    // chunk before: 1.0 -> 0.72 s over a mass outage of a million devices).
    await sql`
      insert into event_outbox (kind, payload, resource, session_id, org_id, created_at)
      with units as materialized (select org_id, group_concat(id, ',' order by id) as ids from temp.sweep_children group by org_id)
      select kind, payload, resource, null, org_id, ${Date.now()} from (
        select 1 as part, org_id, 'device-status' as kind, ${payloads.status[0]} || ids || ${payloads.status[1]} as payload, ${GUARD['device-status']} as resource
        from units
        union all
        select 2, null, ${ALARM_NOTIFICATION_KIND}, ${payloads.marker[0]} || group_concat(a.id, ',' order by a.id) || ${payloads.marker[1]}, null
        from temp.sweep_children c join hotel_alarm a on a.device_id = c.id and a.type = ${type} and a.cleared_at is null
        where ${notify ? 1 : 0} and +a.started_at = ${at} and +a.count = 1 having count(*) > 0
        union all
        select 3, org_id, 'alarm-raised', ${payloads.raised[0]} || ids || ${payloads.raised[1]}, ${GUARD['alarm-raised']}
        from units
      ) order by part, org_id`.execute(db);
    await wakeStreams(db, app.dialect);
    if (records.devices.full) records.devices.addCount(n);
    else {
      const { rows } = await sql<{ id: number }>`select id from temp.sweep_children order by id`.execute(db);
      records.devices.add(rows);
    }
  }
  // Emptied for the next chunk (a failing chunk's rows go with its rollback).
  await sql`delete from temp.sweep_children`.execute(db);
  await sql`delete from temp.sweep_gateway_causes`.execute(db);
  return n;
};

/** Stands for the ids in a payload serialized once per chunk (no id is this small). */
const IDS = Number.MIN_SAFE_INTEGER;

/**
 * The text before and after the ids' list in `payload` (serialized with `[IDS]` as the list), so
 * the database can put a chunk's comma-separated ids between them.
 */
function aroundIds(payload: string): [string, string] {
  const parts = payload.split(`[${IDS}]`);
  if (parts.length !== 2) throw new Error(`expected one id list in ${payload}`);
  return [`${parts[0]}[`, `]${parts[1]}`];
}

/**
 * A chunk's events' payloads and its notification marker, split around their ids: written by the
 * same serializers as publishEvents and the marker, so they cannot drift apart.
 */
const childEventPayloads = (type: string, at: number) => ({
  status: aroundIds(eventPayload({ kind: 'device-status', deviceIds: [IDS], online: 0, at })),
  marker: aroundIds(markerPayload({ event: 'raise', alarmIds: [IDS], at })),
  raised: aroundIds(eventPayload({ kind: 'alarm-raised', type, deviceIds: [IDS], at })),
});

/**
 * Takes offline, in `db` (the sweep's transaction that just took these gateways offline and raised
 * their alarms), their children that are `stale` too (over the unaliased hotel_device_presence): a
 * child heard from meanwhile, on its own or through another path, stays online. Their cause is
 * known, so none of the general path's per-device lookups (whose gateway is down, which location
 * alarm) are made: the children come through the gateway index with their units, for the events.
 * Answers how many went offline.
 */
export async function takeChildrenOffline(
  app: FastifyInstance,
  db: Kysely<Database>,
  gatewayIds: number[],
  stale: RawBuilder<SqlBool>,
  at: number,
  records: TransitionRecords,
): Promise<number> {
  if (gatewayIds.length === 0) return 0;
  return (app.dialect === 'postgres' ? takeChildrenOfflineInSql : takeChildrenOfflineThroughTemp)(app, db, gatewayIds, stale, at, records);
}

/** Raises (or repeats) the own offline alarms of these devices, which went offline for themselves. */
async function raiseOwn(
  app: FastifyInstance,
  db: Kysely<Database>,
  deviceIds: number[],
  byId: Map<number, TransitionDevice>,
  at: number,
  records: TransitionRecords,
): Promise<void> {
  if (deviceIds.length === 0) return;
  // The partial unique index (device_id, type) where cleared_at is null makes a repeat update
  // the active alarm, also when two instances raise it at the same moment. (`where true`: SQLite
  // needs it to read the ON CONFLICT of an INSERT … SELECT.)
  const { type, severity, message } = OFFLINE_ALARM;
  const raiseOrRepeat = sql`
    insert into hotel_alarm (device_id, type, severity, message, started_at, last_at, count)
    select d.id, ${type}, ${severity}, ${message}, ${at}, ${at}, 1 from (${idRows(app.dialect, deviceIds)}) as d where true
    ${REPEAT_ACTIVE_ALARM}`;
  if (!records.raised.full) {
    const { rows } = await sql<{ id: number | string; deviceId: number; count: number }>`${raiseOrRepeat} returning id, device_id, count`.execute(db);
    records.raised.add(rows.filter((row) => row.count === 1).map((row) => ({ id: Number(row.id), type, device: byId.get(row.deviceId)! })));
  } else {
    // Past the alarms the record itemizes it only counts them: those of the batch raised by this
    // statement, in its transaction. Reading back every row instead (a million in a mass outage,
    // each mapped to an object) was half of the sweep's alarm writes.
    await raiseOrRepeat.execute(db);
    const raised = await alarmsRaisedAt(app, db, deviceIds, at).executeTakeFirstOrThrow();
    records.raised.addCount(Number(raised.n));
  }
}

/**
 * Every raise has its clear, and a cleared cause leaves no symptom behind: the symptoms of these
 * alarms (just cleared: their gateway is back) whose device is still silent become alarms of their
 * own, announced as raised now.
 */
async function promoteSymptoms(
  app: FastifyInstance,
  db: Kysely<Database>,
  clearedIds: number[],
  at: number,
  records: TransitionRecords,
  message = PROMOTED_MESSAGE,
): Promise<void> {
  if (clearedIds.length === 0) return;
  // A floor's alarm folded under its building's stands on its own again, as it was raised.
  await db
    .updateTable('hotelAlarm')
    .set({ causeId: null })
    .where(idIn(app.dialect, 'causeId', clearedIds))
    .where('type', 'in', LOCATION_ALARM_TYPES)
    .where('clearedAt', 'is', null)
    .execute();
  const promoted = await db
    .updateTable('hotelAlarm')
    .set({ causeId: null, message, lastAt: at })
    .where(idIn(app.dialect, 'causeId', clearedIds))
    .where('type', '=', OFFLINE_ALARM.type)
    .where('clearedAt', 'is', null)
    .returning(['id', 'deviceId'])
    .execute();
  if (promoted.length === 0) return;
  records.raised.add(promoted.map((row) => ({ id: row.id, type: OFFLINE_ALARM.type, device: { id: row.deviceId } })));
  await announceAlarmEvent(db, app.dialect, {
    event: 'promote',
    type: OFFLINE_ALARM.type,
    alarmIds: promoted.map((row) => row.id),
    at,
  });
}

/**
 * Writes what the flips mean, in `db`: the transaction whose UPDATE set the flags (see above). The
 * flipped devices go to `records`, which the caller writes once its transactions have committed.
 * No pause for the event loop in here: on SQLite that would hold the transaction open across other
 * requests; the caller keeps each call to a chunk.
 */
export async function applyDeviceTransitions(
  app: FastifyInstance,
  db: Kysely<Database>,
  { devices, to, cause, at, locations = false }: DeviceTransitions,
  records: TransitionRecords,
): Promise<void> {
  if (devices.length === 0) return;
  const byId = new Map(devices.map((device) => [device.id, device]));
  records.devices.add(devices);
  for (const batch of batches(devices)) {
    const batchIds = batch.map((device) => device.id);
    const ids = idRows(app.dialect, batchIds);
    // One event per batch and hotel: a mass outage is a few hundred events, not a million.
    const units = await unitsOf(db, app.dialect, batchIds);
    await publishByUnit(
      db,
      app.dialect,
      batchIds,
      (id) => id,
      (deviceIds) => ({ kind: 'device-status', deviceIds, online: to, at }),
      units,
    );
    if (to === 0) {
      const causes = await gatewayAlarmsOf(app, db, batchIds);
      const alone = batchIds.filter((id) => !causes.has(id));
      await sql`insert into hotel_device_transition (device_id, online, at, cause) select d.id, 0, ${at}, ${cause} from (${idRows(app.dialect, alone)}) as d`.execute(db);
      // Devices of a floor or building gone as a whole: symptoms of its location alarm.
      const located = locations && alone.length > 0 ? await locationAlarmsOf(app, db, alone) : new Map<number, number>();
      const own = alone.filter((id) => !located.has(id));
      await raiseOwn(app, db, own, byId, at, records);
      if (located.size > 0) {
        const grouped = [...located.keys()];
        const { type, severity, message } = OFFLINE_ALARM;
        await sql`
          insert into hotel_alarm (device_id, type, severity, message, started_at, last_at, count, cause_id)
          select d.id, ${type}, ${severity}, ${message}, ${at}, ${at}, 1, d.value from (${idValueRows(app.dialect, grouped, [...located.values()])}) as d where true
          on conflict (device_id, type) where cleared_at is null
          do update set count = hotel_alarm.count + 1, last_at = excluded.last_at`.execute(db);
      }
      // Unreachable behind a gateway that is down: recorded as such, and an alarm that is its
      // gateway's symptom (folded under it, not counted, not told to causes-only rules).
      if (causes.size > 0) await recordUnreachable(app, db, causes, at);
      await announceAlarmEvent(db, app.dialect, { event: 'raise', type: OFFLINE_ALARM.type, deviceIds: batchIds, at }, SYSTEM_ACTOR, units);
    } else {
      await sql`insert into hotel_device_transition (device_id, online, at, cause) select d.id, ${to}, ${at}, ${cause} from (${ids}) as d`.execute(db);
      const rows = await db
        .updateTable('hotelAlarm')
        .set({ clearedAt: at, clearedBy: SYSTEM_ACTOR })
        .where('type', '=', OFFLINE_ALARM.type)
        .where('clearedAt', 'is', null)
        .where(idIn(app.dialect, 'deviceId', batchIds))
        .returning(['id', 'deviceId'])
        .execute();
      records.cleared.add(rows.map((row) => ({ id: row.id, type: OFFLINE_ALARM.type, device: byId.get(row.deviceId)! })));
      await announceAlarmEvent(db, app.dialect, { event: 'clear', alarmIds: rows.map((row) => row.id), at }, SYSTEM_ACTOR);
      await promoteSymptoms(
        app,
        db,
        rows.map((row) => row.id),
        at,
        records,
      );
      // Their floor or building back under the threshold: its alarm clears, its silent devices get their own.
      const recovered = await clearRecoveredLocations(app, db, await activeLocationAlarms(app, db, batchIds), at);
      records.cleared.add(recovered.map((alarm) => ({ id: alarm.id, type: alarm.type, device: { id: alarm.deviceId }, location: alarm.locationId })));
      await promoteSymptoms(
        app,
        db,
        recovered.map((alarm) => alarm.id),
        at,
        records,
        LOCATION_PROMOTED_MESSAGE,
      );
    }
  }
}
