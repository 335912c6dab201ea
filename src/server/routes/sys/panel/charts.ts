/**
 * The panel's chart series. Days are calendar days in Asia/Shanghai, which has kept UTC+8 without
 * daylight saving since 1991, so a day is a fixed 24 h window and the database can bucket epoch
 * milliseconds with integer arithmetic, the same way on SQLite and PostgreSQL.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../../db/schema';
import { PANEL_DAYS } from '../../../../contract/sys/panel';
import { inScope, type DataScope } from '../../../lib/data-scope';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const SHANGHAI_OFFSET_MS = 8 * HOUR_MS;

type Db = Kysely<Database>;

/** The Shanghai day number of an epoch-ms column (days since 1970-01-01 there). */
const dayNumberOf = (column: string): RawBuilder<number> => sql<number>`(${sql.ref(column)} + ${sql.lit(SHANGHAI_OFFSET_MS)}) / ${sql.lit(DAY_MS)}`;

const dayNumber = (epochMs: number): number => Math.floor((epochMs + SHANGHAI_OFFSET_MS) / DAY_MS);

/** YYYY-MM-DD of a Shanghai day number. */
const dayLabel = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The last `days` Shanghai day numbers, today last. */
function lastDays(now: number, days: number): number[] {
  const today = dayNumber(now);
  return Array.from({ length: days }, (_, index) => today - days + 1 + index);
}

/** Where a series of `days` days starts: midnight in Shanghai of its first day. */
const startOfSeries = (now: number, days: number): number => (dayNumber(now) - days + 1) * DAY_MS - SHANGHAI_OFFSET_MS;

/** Successful sign-ins per Shanghai day, from the login log (monitor/login). */
export async function signInsPerDay(db: Db, scope: DataScope, now: number, days = PANEL_DAYS): Promise<Array<{ day: string; count: number }>> {
  // The login log keeps every successful sign-in (sessions are purged when they end); a scoped
  // caller counts the sign-ins of the users in their scope.
  const rows = await db
    .selectFrom('sysLoginLog')
    .$if(scope.kind !== 'all', (q) =>
      q.where('userId', 'in', (eb) =>
        eb
          .selectFrom('sysUser')
          .select('sysUser.id')
          .$call(inScope(scope, { org: 'sysUser.orgId', self: 'sysUser.id' })),
      ),
    )
    .select((eb) => [dayNumberOf('at').as('day'), eb.fn.countAll<number>().as('n')])
    .where('at', '>=', startOfSeries(now, days))
    .where('event', '=', 'signIn')
    .where('outcome', '=', 'success')
    .groupBy(dayNumberOf('at'))
    .execute();
  const byDay = new Map(rows.map((row) => [Number(row.day), Number(row.n)]));
  return lastDays(now, days).map((day) => ({ day: dayLabel(day), count: byDay.get(day) ?? 0 }));
}

/** Finished schedule runs per day and outcome (runs still going are not counted). */
export async function scheduleRunsPerDay(db: Db, now: number, days = PANEL_DAYS): Promise<Array<{ day: string; success: number; failed: number }>> {
  const rows = await db
    .selectFrom('sysScheduleLog')
    .select((eb) => [dayNumberOf('startedAt').as('day'), 'outcome', eb.fn.countAll<number>().as('n')])
    .where('startedAt', '>=', startOfSeries(now, days))
    .where('outcome', 'in', ['success', 'failed'])
    .groupBy([dayNumberOf('startedAt'), 'outcome'])
    .execute();
  const count = (day: number, outcome: string) => Number(rows.find((row) => Number(row.day) === day && row.outcome === outcome)?.n ?? 0);
  return lastDays(now, days).map((day) => ({ day: dayLabel(day), success: count(day, 'success'), failed: count(day, 'failed') }));
}

/** The samples of the last 24 h, oldest first, then the live figure. */
export async function onlineHistory(db: Db, now: number, live: { online: number; total: number }) {
  const samples = await db
    .selectFrom('hotelDeviceOnlineSample')
    .select(['sampledAt', 'online', 'total'])
    .where('sampledAt', '>', now - DAY_MS)
    .where('sampledAt', '<=', now)
    .orderBy('sampledAt')
    .execute();
  return [...samples.map((sample) => ({ at: sample.sampledAt, online: sample.online, total: sample.total })), { at: now, ...live }];
}

/** Devices per type with the device_type dictionary's label, most numerous first. */
export async function devicesByType(db: Db, scope: DataScope): Promise<Array<{ type: string; label: string; count: number }>> {
  const [rows, labels] = await Promise.all([
    db
      .selectFrom('hotelDevice')
      .where('hotelDevice.deletedAt', 'is', null)
      .$call(inScope(scope, { org: 'hotelDevice.orgId', self: 'hotelDevice.createdBy' }))
      .select((eb) => ['type', eb.fn.countAll<number>().as('n')])
      .groupBy('type')
      .execute(),
    db.selectFrom('sysDict').select(['value', 'label']).where('code', '=', 'device_type').execute(),
  ]);
  const labelOf = new Map(labels.map((entry) => [entry.value, entry.label]));
  return rows.map((row) => ({ type: row.type, label: labelOf.get(row.type) ?? row.type, count: Number(row.n) })).sort((a, b) => b.count - a.count || a.type.localeCompare(b.type));
}
