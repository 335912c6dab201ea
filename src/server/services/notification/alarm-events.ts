/**
 * Alarms reach people: the one place where an alarm's raise or clear becomes messages, and where
 * escalation steps come due (`escalateDue`, run by the delivery worker). What goes where is the
 * rules' (notify_rule):
 *
 * - a raise goes, once per channel, to the channels of every enabled rule it matches: alarm type,
 *   lowest severity, organisation unit subtree (the device's unit: its hotel), location subtree,
 *   causes only or symptoms too (`isSymptom` is the one place that tells a symptom from a cause: a
 *   symptom names its cause, e.g. a device unreachable behind its gateway that is down);
 *   outside the rule's quiet hours (a daily window in Asia/Shanghai), and not while a maintenance
 *   window covers the device's location (nothing is sent; the alarm is still recorded);
 * - each matching rule's escalation steps wait in notify_escalation; when one is due the worker
 *   sends it to the step's channels unless the alarm was acknowledged or cleared meanwhile;
 * - a clear goes to every channel that was told of the raise (or of an escalation), whatever the
 *   rules and windows say now, and drops the steps still waiting.
 *
 * In two steps, so that an alarm storm costs the transaction that raised it one row per batch:
 * `notifyAlarmEvent`, in that transaction, writes a marker (a row of the event outbox, never
 * streamed) naming the event's alarms and time; `expandAlarmEvents`, run by the delivery worker
 * in small transactions of its own, turns the oldest marker's alarms into messages and escalation
 * steps and deletes or shortens the marker in the same transaction. A crash before that commit
 * leaves the marker whole, so each message is queued exactly once. Markers are expanded in order
 * and by one instance at a time (on PostgreSQL under a transaction advisory lock), so a clear
 * always finds the messages of its raise. Windows and quiet hours are read at the event's time;
 * rules, channels and templates as they stand when the marker is expanded (moments later).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { Dialect } from '../../db/dialect';
import { idIn } from '../../lib/id-list';
import { LocationIndex } from '../location-paths';
import { enqueueNotifications, type NotificationMessage } from './outbox';
import { loadTemplates, renderAlarmMessage, type AlarmFields, type AlarmMessageKind, type TemplateSet } from './templates';
import { parseJsonList } from '../../lib/json-list';
import { readOrgTree, subtreesOf } from '../../lib/data-scope';
import { ALARM_NOTIFICATION_KIND } from '../events/outbox';
import { ALARM_SEVERITIES } from '../../../contract/constants';

type Db = Kysely<Database> | Transaction<Database>;

/** An alarm event as the alarm code reports it: the alarms raised (by device, at one time) or cleared (by id). */
export type AlarmEvent =
  | { event: 'raise'; type: string; deviceIds: number[]; at: number }
  /** Symptoms that became alarms of their own (their cause cleared while their device stays silent): raised now. */
  | { event: 'promote'; type: string; alarmIds: number[]; at: number }
  | { event: 'clear'; alarmIds: number[]; at: number };

/** Alarms of a marker expanded per transaction: a storm's expansion keeps to short transactions. */
export const EXPAND_BATCH = 200;
/** The PostgreSQL advisory lock key of the expansion (any constant no other lock of the product uses). */
const EXPANSION_LOCK = 280_001;

/** What a marker holds: the alarms one event raised (or promoted) or cleared, and when. */
export interface PendingEvent {
  event: 'raise' | 'clear';
  alarmIds: number[];
  at: number;
}

const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;
/** Asia/Shanghai has had no daylight saving since 1991. */
const SHANGHAI_OFFSET_MS = 8 * 60 * MINUTE;
/** Escalation steps taken per call (the worker calls again each round). */
const ESCALATION_BATCH = 200;

export interface EscalationStep {
  afterMinutes: number;
  channelIds: number[];
}

interface Rule {
  id: number;
  alarmTypes: string[];
  minSeverity: string;
  orgId: number | null;
  locationId: number | null;
  symptoms: boolean;
  channelIds: number[];
  quietStart: number | null;
  quietEnd: number | null;
  escalation: EscalationStep[];
}

async function enabledRules(db: Db): Promise<Rule[]> {
  const rows = await db.selectFrom('notifyRule').selectAll().where('state', '=', 1).orderBy('id').execute();
  return rows.map((row) => ({
    id: row.id,
    alarmTypes: parseJsonList<string>(row.alarmTypes),
    minSeverity: row.minSeverity,
    orgId: row.orgId,
    locationId: row.locationId,
    symptoms: row.symptoms === 1,
    channelIds: parseJsonList<number>(row.channelIds),
    quietStart: row.quietStart,
    quietEnd: row.quietEnd,
    escalation: parseJsonList<EscalationStep>(row.escalation),
  }));
}

/** Whether `at` falls in the daily window [start, end) of Asia/Shanghai minutes; a window may run past midnight. */
export function inQuietHours(start: number | null, end: number | null, at: number): boolean {
  if (start === null || end === null || start === end) return false;
  const minute = Math.floor(((((at + SHANGHAI_OFFSET_MS) % (DAY_MINUTES * MINUTE)) + DAY_MINUTES * MINUTE) % (DAY_MINUTES * MINUTE)) / MINUTE);
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/** ALARM_SEVERITIES runs more severe first: a rule's lowest severity lets through itself and those before it. */
const severeEnough = (severity: string, lowest: string) => {
  const order: readonly string[] = ALARM_SEVERITIES;
  const rank = order.indexOf(severity);
  const limit = order.indexOf(lowest);
  return rank !== -1 && limit !== -1 && rank <= limit;
};

interface LocatedAlarm extends AlarmFields {
  /** The device's location and its ancestors. */
  line: number[];
  /** The alarm it is a symptom of; null for a cause. */
  causeId: number | null;
  /** The device's organisation unit. */
  orgId: number | null;
}

const isSymptom = (alarm: LocatedAlarm): boolean => alarm.causeId !== null;

async function loadAlarms(db: Db, dialect: Dialect, alarmIds: number[]): Promise<LocatedAlarm[]> {
  if (alarmIds.length === 0) return [];
  const rows = await db
    .selectFrom('hotelAlarm as a')
    .innerJoin('hotelDevice as d', 'd.id', 'a.deviceId')
    .select([
      'a.id',
      'a.type',
      'a.severity',
      'a.message',
      'a.startedAt',
      'a.clearedAt',
      'a.count',
      'a.deviceId',
      'a.causeId',
      'd.name as deviceName',
      'd.sn as deviceSn',
      // A location alarm (楼层断连 / 楼栋断连) is about its floor or building, not its representative device's room.
      (eb) => eb.fn.coalesce('a.locationId', 'd.locationId').as('locationId'),
      'd.orgId',
    ])
    .where(idIn(dialect, 'a.id', alarmIds))
    .orderBy('a.id')
    .execute();
  const locations = await LocationIndex.of(
    db,
    rows.map((row) => row.locationId),
  );
  return rows.map(({ locationId, causeId, orgId, ...alarm }) => ({
    ...alarm,
    id: Number(alarm.id),
    causeId: causeId === null ? null : Number(causeId),
    location: locations.pathOf(locationId),
    line: locations.lineOf(locationId),
    orgId,
  }));
}

const inSubtree = (alarm: LocatedAlarm, locationId: number | null) => locationId === null || alarm.line.includes(locationId);

/**
 * Each rule unit's subtree, read from the tree once per event and only when a rule names a unit. A
 * unit removed since is an empty subtree: its rule then matches nothing rather than everything.
 */
async function unitSubtrees(db: Db, rules: readonly Rule[]): Promise<Map<number, Set<number>>> {
  const units = [...new Set(rules.flatMap((rule) => (rule.orgId === null ? [] : [rule.orgId])))];
  if (units.length === 0) return new Map();
  const tree = await readOrgTree(db);
  return new Map(units.map((unit) => [unit, subtreesOf(tree, [unit])]));
}

const inUnit = (alarm: LocatedAlarm, orgId: number | null, subtrees: Map<number, Set<number>>) =>
  orgId === null || (alarm.orgId !== null && (subtrees.get(orgId)?.has(alarm.orgId) ?? false));

async function enabledChannelTypes(db: Db, ids: Iterable<number>): Promise<Map<number, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('notifyChannel').select(['id', 'type']).where('id', 'in', wanted).where('state', '=', 1).execute();
  return new Map(rows.map((row) => [row.id, row.type]));
}

function messagesFor(
  pairs: Array<{ alarm: AlarmFields; channelId: number }>,
  types: Map<number, string>,
  templates: TemplateSet,
  kind: AlarmMessageKind,
  minutes = 0,
): NotificationMessage[] {
  return pairs.flatMap(({ alarm, channelId }) => {
    const type = types.get(channelId);
    return type === undefined ? [] : [{ channelId, alarmId: alarm.id, kind, ...renderAlarmMessage(type, kind, alarm, minutes, templates) }];
  });
}

/** The edited templates, read only when there is a message to write. */
const templatesFor = (db: Db, types: Map<number, string>): Promise<TemplateSet> => (types.size === 0 ? Promise.resolve(new Map()) : loadTemplates(db));

/** The alarms a raise event raised (not repeats of active ones): started now, counted once. */
async function raisedIds(db: Db, dialect: Dialect, type: string, deviceIds: number[], at: number): Promise<number[]> {
  const ids = await db
    .selectFrom('hotelAlarm')
    .select('id')
    .where(idIn(dialect, 'deviceId', deviceIds))
    .where('type', '=', type)
    .where('clearedAt', 'is', null)
    // `+column`: found by device through the active-alarm index, never through the started-at one
    // (see alarmsRaisedAt in device-status/transitions.ts: every alarm of a mass outage starts at `at`).
    .where(sql<number>`+${sql.ref('startedAt')}`, '=', at)
    .where(sql<number>`+${sql.ref('count')}`, '=', 1)
    .execute();
  return ids.map((row) => Number(row.id));
}

/** The messages and escalation steps of these alarms, raised at `at`. */
async function raisedAlarms(db: Db, dialect: Dialect, alarmIds: number[], at: number, rules: Rule[]): Promise<number> {
  const alarms = await loadAlarms(db, dialect, alarmIds);
  if (alarms.length === 0) return 0;
  const subtrees = await unitSubtrees(db, rules);
  const windows = await db.selectFrom('notifyMaintenance').select('locationId').where('state', '=', 1).where('startsAt', '<=', at).where('endsAt', '>', at).execute();
  const pairs: Array<{ alarm: AlarmFields; channelId: number }> = [];
  const steps: Array<{ alarmId: number; ruleId: number; step: number; dueAt: number }> = [];
  for (const alarm of alarms) {
    if (windows.some((window) => inSubtree(alarm, window.locationId))) continue;
    const channels = new Set<number>();
    for (const rule of rules) {
      if (rule.alarmTypes.length > 0 && !rule.alarmTypes.includes(alarm.type)) continue;
      if (!severeEnough(alarm.severity, rule.minSeverity) || !inSubtree(alarm, rule.locationId) || !inUnit(alarm, rule.orgId, subtrees)) continue;
      if (!rule.symptoms && isSymptom(alarm)) continue;
      if (inQuietHours(rule.quietStart, rule.quietEnd, at)) continue;
      for (const channelId of rule.channelIds) channels.add(channelId);
      rule.escalation.forEach((step, index) => steps.push({ alarmId: alarm.id, ruleId: rule.id, step: index, dueAt: at + step.afterMinutes * MINUTE }));
    }
    for (const channelId of channels) pairs.push({ alarm, channelId });
  }
  if (steps.length > 0) await db.insertInto('notifyEscalation').values(steps).execute();
  const types = await enabledChannelTypes(
    db,
    pairs.map((pair) => pair.channelId),
  );
  return enqueueNotifications(db, messagesFor(pairs, types, await templatesFor(db, types), 'raise'), at);
}

async function cleared(db: Db, dialect: Dialect, alarmIds: number[], at: number): Promise<number> {
  await db
    .deleteFrom('notifyEscalation')
    .where(idIn(dialect, 'alarmId', alarmIds))
    .execute();
  const told = await db
    .selectFrom('notifyMessage')
    .select(['alarmId', 'channelId'])
    .distinct()
    .where(idIn(dialect, 'alarmId', alarmIds))
    .where('kind', 'in', ['raise', 'escalation'])
    .execute();
  if (told.length === 0) return 0;
  const alarms = new Map((await loadAlarms(db, dialect, [...new Set(told.map((row) => Number(row.alarmId)))])).map((alarm) => [alarm.id, alarm]));
  const pairs = told.flatMap((row) => {
    const alarm = alarms.get(Number(row.alarmId));
    return alarm ? [{ alarm, channelId: row.channelId }] : [];
  });
  const types = await enabledChannelTypes(
    db,
    pairs.map((pair) => pair.channelId),
  );
  return enqueueNotifications(db, messagesFor(pairs, types, await templatesFor(db, types), 'clear'), at);
}

/**
 * Records, in `db` (the transaction that raised or cleared the alarms), that an alarm event is to
 * become messages: one marker row, so the marker exists exactly when the change does. The caller
 * wakes the worker after its commit, which expands it. Without enabled rules a raise costs one
 * small query and no marker; a clear always leaves one (its raise may still be a marker).
 */
export async function notifyAlarmEvent(db: Db, dialect: Dialect, event: AlarmEvent): Promise<void> {
  if (event.event === 'clear') return mark(db, { event: 'clear', alarmIds: event.alarmIds, at: event.at });
  if ((event.event === 'raise' ? event.deviceIds : event.alarmIds).length === 0) return;
  if (!(await anyRuleEnabled(db))) return;
  const alarmIds = event.event === 'raise' ? await raisedIds(db, dialect, event.type, event.deviceIds, event.at) : event.alarmIds;
  await mark(db, { event: 'raise', alarmIds, at: event.at });
}

/** Whether a raise may send anything: one small query, so a product without rules writes no marker. */
export async function anyRuleEnabled(db: Db): Promise<boolean> {
  const rule = await db.selectFrom('notifyRule').select('id').where('state', '=', 1).limit(1).executeTakeFirst();
  return rule !== undefined;
}

/** A marker's outbox payload. */
export const markerPayload = (pending: PendingEvent): string => JSON.stringify(pending);

async function mark(db: Db, pending: PendingEvent): Promise<void> {
  if (pending.alarmIds.length === 0) return;
  await db
    .insertInto('eventOutbox')
    .values({ kind: ALARM_NOTIFICATION_KIND, payload: markerPayload(pending), resource: null, sessionId: null, orgId: null, createdAt: Date.now() })
    .execute();
}

/**
 * Expands up to `limit` alarms of the oldest marker into their messages (and escalation steps), in
 * one transaction that also deletes the marker or leaves it the alarms still to do. Answers how many
 * alarms it took: 0 when no marker waits, or when another instance is expanding (PostgreSQL).
 */
export async function expandAlarmEvents(db: Kysely<Database>, dialect: Dialect, limit = EXPAND_BATCH): Promise<number> {
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${EXPANSION_LOCK}) as locked`.execute(trx);
      if (!rows[0]?.locked) return 0;
    }
    const marker = await trx.selectFrom('eventOutbox').select(['id', 'payload']).where('kind', '=', ALARM_NOTIFICATION_KIND).orderBy('id').limit(1).executeTakeFirst();
    if (!marker) return 0;
    const pending = JSON.parse(marker.payload) as PendingEvent;
    const taken = pending.alarmIds.slice(0, limit);
    const rest = pending.alarmIds.slice(limit);
    if (rest.length > 0) {
      await trx
        .updateTable('eventOutbox')
        .set({ payload: markerPayload({ ...pending, alarmIds: rest }) })
        .where('id', '=', marker.id)
        .execute();
    } else {
      await trx.deleteFrom('eventOutbox').where('id', '=', marker.id).execute();
    }
    if (pending.event === 'clear') await cleared(trx, dialect, taken, pending.at);
    else {
      const rules = await enabledRules(trx);
      if (rules.length > 0) await raisedAlarms(trx, dialect, taken, pending.at, rules);
    }
    return taken.length;
  });
}

/**
 * The escalation steps due at `now`: each goes to its step's channels unless its alarm was
 * acknowledged or cleared (then it is dropped), in one transaction per batch. On PostgreSQL the
 * rows are taken FOR UPDATE SKIP LOCKED, so instances running it at once take different steps.
 */
export async function escalateDue(db: Kysely<Database>, dialect: Dialect, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('notifyEscalation')
      .select(['id', 'alarmId', 'ruleId', 'step'])
      .where('dueAt', '<=', now)
      .orderBy('dueAt')
      .orderBy('id')
      .limit(ESCALATION_BATCH)
      .$if(dialect === 'postgres', (query) => query.forUpdate().skipLocked())
      .execute();
    if (due.length === 0) return 0;
    await trx
      .deleteFrom('notifyEscalation')
      .where(
        'id',
        'in',
        due.map((row) => row.id),
      )
      .execute();
    const open = await trx
      .selectFrom('hotelAlarm')
      .select('id')
      .where(
        'id',
        'in',
        due.map((row) => Number(row.alarmId)),
      )
      .where('acknowledgedAt', 'is', null)
      .where('clearedAt', 'is', null)
      .execute();
    const openIds = new Set(open.map((row) => Number(row.id)));
    const live = due.filter((row) => openIds.has(Number(row.alarmId)));
    if (live.length === 0) return 0;
    const ruleRows = await trx
      .selectFrom('notifyRule')
      .select(['id', 'escalation'])
      .where(
        'id',
        'in',
        live.map((row) => row.ruleId),
      )
      .execute();
    const stepsOf = new Map(ruleRows.map((row) => [row.id, parseJsonList<EscalationStep>(row.escalation)]));
    const alarms = new Map((await loadAlarms(trx, dialect, [...openIds])).map((alarm) => [alarm.id, alarm]));
    const messages: NotificationMessage[] = [];
    const types = await enabledChannelTypes(
      trx,
      live.flatMap((row) => stepsOf.get(row.ruleId)?.[row.step]?.channelIds ?? []),
    );
    const templates = await templatesFor(trx, types);
    for (const row of live) {
      const step = stepsOf.get(row.ruleId)?.[row.step];
      const alarm = alarms.get(Number(row.alarmId));
      if (!step || !alarm) continue;
      messages.push(
        ...messagesFor(
          step.channelIds.map((channelId) => ({ alarm, channelId })),
          types,
          templates,
          'escalation',
          step.afterMinutes,
        ),
      );
    }
    return enqueueNotifications(trx, messages, now);
  });
}
