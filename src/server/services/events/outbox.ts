/**
 * The one place an event of the live stream is written: `publishEvent`, called in the transaction
 * of the change it announces, so the change and its event commit together (or neither does). The
 * outbox is the truth; the wake-up it sends (NOTIFY on PostgreSQL, delivered by the server only at
 * commit; an in-process signal on SQLite) only tells the streams to read it now rather than at
 * their next slow poll.
 */
import { EventEmitter } from 'node:events';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { Dialect } from '../../db/dialect';
import type { LiveEvent } from '../../../contract/events';
import { idIn } from '../../lib/id-list';

type Db = Kysely<Database> | Transaction<Database>;

/** The PostgreSQL channel every instance listens on. */
export const EVENT_CHANNEL = 'console_events';
/**
 * The kind of a notification marker (notification/alarm-events.ts): written in an alarm's
 * transaction for the notification worker, not an event for consoles; the live streams skip it and
 * the pruning of old events keeps it until the worker has expanded it.
 */
export const ALARM_NOTIFICATION_KIND = 'alarm-notification';

/**
 * SQLite's wake-up: every stream hub of this process listens (one database file is one process's).
 * A wake-up only makes a hub read the outbox; on SQLite the read waits for the one connection the
 * publishing transaction holds, so it sees the event once committed, and nothing if rolled back.
 */
export const localWake = new EventEmitter();
localWake.setMaxListeners(0);

/** The resource a receiver's role must hold to receive an event of a kind (the screen's list read). */
export const GUARD: Record<Exclude<LiveEvent['kind'], 'session-ended'>, string> = {
  'device-status': '/hotel/device/inquire',
  'command-status': '/hotel/device/inquire',
  'alarm-raised': '/hotel/alarm/inquire',
  'alarm-acknowledged': '/hotel/alarm/inquire',
  'alarm-cleared': '/hotel/alarm/inquire',
};

export interface EventAddress {
  /** Only this session's stream receives it. */
  sessionId?: number;
  /** The organisation unit its data belongs to (data scope). */
  orgId?: number | null;
}

/** Writes events to the outbox in `db` (the change's transaction) and wakes the streams at commit. */
export async function publishEvents(db: Db, dialect: Dialect, events: Array<{ event: LiveEvent; to?: EventAddress }>): Promise<void> {
  if (events.length === 0) return;
  const now = Date.now();
  await db
    .insertInto('eventOutbox')
    .values(
      events.map(({ event, to }) => {
        const { kind } = event;
        return {
          kind,
          payload: eventPayload(event),
          resource: kind === 'session-ended' ? null : GUARD[kind],
          sessionId: to?.sessionId ?? null,
          orgId: to?.orgId ?? null,
          createdAt: now,
        };
      }),
    )
    .execute();
  await wakeStreams(db, dialect);
}

/** An event's outbox payload: its fields without the kind (which has its own column). */
export function eventPayload(event: LiveEvent): string {
  const { kind: _kind, ...fields } = event;
  return JSON.stringify(fields);
}

/** Wakes every instance's streams once `db`'s transaction commits (PostgreSQL's NOTIFY waits for it). */
export async function wakeStreams(db: Db, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_notify(${EVENT_CHANNEL}, '')`.execute(db);
  else setImmediate(() => localWake.emit('wake'));
}

export const publishEvent = (db: Db, dialect: Dialect, event: LiveEvent, to?: EventAddress) => publishEvents(db, dialect, [{ event, to }]);

/** The organisation unit of each of these devices, for `publishByUnit`. */
export async function unitsOf(db: Db, dialect: Dialect, deviceIds: readonly number[]): Promise<Map<number, number | null>> {
  if (deviceIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('hotelDevice')
    .select(['id', 'orgId'])
    .where(idIn(dialect, 'id', deviceIds))
    .execute();
  return new Map(rows.map((row) => [row.id, row.orgId]));
}

/**
 * Publishes an event about devices once per organisation unit they belong to, each addressed to
 * its unit, so the data-scope filter of the streams can hold it (an event naming devices of two
 * hotels would otherwise reach neither hotel's staff, or both). `deviceOf` names each item's device;
 * `units` are the devices' units where the caller has already read them (else they are read here).
 */
export async function publishByUnit<T>(
  db: Db,
  dialect: Dialect,
  items: readonly T[],
  deviceOf: (item: T) => number,
  eventFor: (items: T[]) => LiveEvent,
  units?: ReadonlyMap<number, number | null>,
): Promise<void> {
  if (items.length === 0) return;
  const unitOf = units ?? (await unitsOf(db, dialect, [...new Set(items.map(deviceOf))]));
  const byUnit = new Map<number | null, T[]>();
  for (const item of items) {
    const unit = unitOf.get(deviceOf(item)) ?? null;
    const group = byUnit.get(unit);
    // Pushed, not copied: a batch of a mass outage is thousands of devices of one hotel.
    if (group) group.push(item);
    else byUnit.set(unit, [item]);
  }
  await publishEvents(
    db,
    dialect,
    [...byUnit].map(([orgId, group]) => ({ event: eventFor(group), to: { orgId } })),
  );
}

/** The device of each of these alarms, for `publishByUnit`. */
export async function devicesOfAlarms(db: Db, dialect: Dialect, alarmIds: readonly number[]): Promise<Map<number, number>> {
  if (alarmIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('hotelAlarm')
    .select(['id', 'deviceId'])
    .where(idIn(dialect, 'id', alarmIds))
    .execute();
  return new Map(rows.map((row) => [row.id, row.deviceId]));
}
