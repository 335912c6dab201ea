/**
 * Alarms (hotel/alarm): staff list, acknowledge and clear the alarms the system raises (see
 * services/device-status/transitions.ts), and set each device type's inactivity timeout for the
 * offline sweep. Also one device's status history for the device drawer (/hotel/device/status).
 */
import type { FastifyInstance } from 'fastify';
import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import type { BodyOf } from '../../../../contract';
import type { ALARM_SORT_KEYS } from '../../../../contract/hotel/alarm';
import { RECENT_ALARMS } from '../../../../contract/hotel/alarm';
import type { Database } from '../../../db/schema';
import { currentScope, currentUser, defineRoute, ok } from '../../../lib/route';
import { inScope, type DataScope } from '../../../lib/data-scope';
import { conflict, notFound } from '../../../lib/errors';
import { checkEach } from '../../../lib/batch';
import { assertHoldsPath } from '../../../services/grants';
import { contains, defaultOrder, countUpTo, fetchCappedPage, fetchPage, given, listOrder, ordered, type SortColumn } from '../../../lib/list-query';
import { assertKnownDeviceType } from '../../../services/device-types';
import { announceAlarmEvent, devicesOfAlarms, publishByUnit } from '../../../services/events';
import { alarmAuditTarget } from './audit-target';

type AlarmFilters = NonNullable<BodyOf<'/hotel/alarm/inquire'>['params']>;
const ALARM_SORT: Record<(typeof ALARM_SORT_KEYS)[number], SortColumn> = {
  startedAt: 'a.startedAt',
  lastAt: 'a.lastAt',
  count: 'a.count',
  // critical < major < minor < warning: the names sort in order of severity.
  severity: 'a.severity',
};
const ALARM_ORDER = defaultOrder(['startedAt', 'a.startedAt', 'desc'], ['id', 'a.id', 'desc']);

const alarmColumns = [
  'a.id',
  'a.deviceId',
  'd.name as deviceName',
  'd.sn as deviceSn',
  'a.type',
  'a.severity',
  'a.message',
  'a.startedAt',
  'a.lastAt',
  'a.count',
  'a.acknowledgedBy',
  'a.acknowledgedAt',
  'a.acknowledgeNote',
  'a.clearedBy',
  'a.clearedAt',
  'a.causeId',
  'a.locationId',
  'la.kind as locationKind',
  'la.name as locationName',
  'lp.name as locationParentName',
] as const;

/** A cause's symptoms, counted for the rows of a page (through the partial index on cause_id). */
const symptomCount = (eb: ExpressionBuilder<Database & { a: Database['hotelAlarm'] }, 'a'>) =>
  eb
    .selectFrom('hotelAlarm as s')
    .select((inner) => inner.fn.countAll<number | string>().as('n'))
    .whereRef('s.causeId', '=', 'a.id')
    .as('symptomCount');
type ListedAlarm = {
  causeId: number | string | null;
  symptomCount: number | string | null;
  locationKind: string | null;
  locationName: string | null;
  locationParentName: string | null;
};
/** bigint columns and counts arrive as strings from PostgreSQL; a location alarm's path is 楼栋 or 楼栋 / 楼层. */
const listed = <T extends ListedAlarm>({ locationKind, locationName, locationParentName, ...row }: T) => ({
  ...row,
  causeId: row.causeId === null ? null : Number(row.causeId),
  symptomCount: Number(row.symptomCount ?? 0),
  locationPath: locationName === null ? null : locationKind === 'floor' && locationParentName !== null ? `${locationParentName} / ${locationName}` : locationName,
});

/** An alarm is in scope when its device is (the device's hotel, or under 仅本人 its creator). */
const ALARM_SCOPE = { org: 'd.orgId', self: 'd.createdBy' };
/**
 * A location alarm's device is a representative device of its floor or building, so it is in
 * scope when that location's hotel is; its location (la, with its building lp) names its subject.
 */
const alarmsWithDevices = (db: Kysely<Database>, scope: DataScope) =>
  db
    .selectFrom('hotelAlarm as a')
    .innerJoin('hotelDevice as d', 'd.id', 'a.deviceId')
    .leftJoin('hotelLocation as la', 'la.id', 'a.locationId')
    .leftJoin('hotelLocation as lp', 'lp.id', 'la.parentId')
    .$call(inScope(scope, ALARM_SCOPE));

/** The minutes of the enabled offline sweep, which a type without its own timeout gets. */
async function sweepMinutes(db: Kysely<Database>): Promise<number | null> {
  const schedule = await db.selectFrom('sysSchedule').select('params').where('task', '=', 'device.offlineSweep').where('state', '=', 1).orderBy('id').executeTakeFirst();
  if (!schedule) return null;
  try {
    const minutes = (JSON.parse(schedule.params) as { minutes?: unknown }).minutes;
    return typeof minutes === 'number' ? minutes : null;
  } catch {
    return null;
  }
}

/** Registers the routes; nothing to wait for (a Fastify plugin answers a promise). */
export function alarmRoutes(app: FastifyInstance): Promise<void> {
  app.audit.targets.register('alarm', alarmAuditTarget);
  const filtered = (scope: DataScope, filters: AlarmFilters) => {
    let query = alarmsWithDevices(app.reads, scope);
    if (filters.id !== undefined) query = query.where('a.id', '=', filters.id);
    if (filters.status === 'active') query = query.where('a.clearedAt', 'is', null);
    if (filters.status === 'cleared') query = query.where('a.clearedAt', 'is not', null);
    if (filters.acknowledged === 1) query = query.where('a.acknowledgedAt', 'is not', null);
    if (filters.acknowledged === 0) query = query.where('a.acknowledgedAt', 'is', null);
    if (filters.severity !== undefined) query = query.where('a.severity', '=', filters.severity);
    if (given(filters.device)) {
      const text = filters.device;
      query = query.where((eb) => eb.or([contains(eb.ref('d.name'), text), contains(eb.ref('d.sn'), text)]));
    }
    if (filters.startAt !== undefined) query = query.where('a.startedAt', '>=', filters.startAt);
    if (filters.endAt !== undefined) query = query.where('a.startedAt', '<=', filters.endAt);
    // Causes, each with its symptoms folded under it; or one cause's symptoms.
    query = filters.causeId !== undefined ? query.where('a.causeId', '=', filters.causeId) : query.where('a.causeId', 'is', null);
    return query;
  };

  defineRoute(app, '/hotel/alarm/inquire', 'resource', async (request) => {
    const scope = currentScope(request);
    const query = filtered(scope, request.body.params ?? {});
    const order = listOrder(request.body.sort, ALARM_SORT, ALARM_ORDER, 'a.id');
    // Alarms accumulate for as long as the hotel runs: counted up to the cap, like the audit logs.
    const page = await fetchCappedPage(
      request.body,
      countUpTo(app.reads, query.select('a.id')),
      async (limit, offset, seek) =>
        (
          await ordered(
            query
              .$if(seek !== null, (q) => q.where(seek!))
              .select([...alarmColumns])
              .select(symptomCount),
            order,
          )
            .limit(limit)
            .offset(offset)
            .execute()
        ).map(listed),
      {
        order,
        rowById: async (id) => {
          const row = await alarmsWithDevices(app.reads, scope)
            .select([...alarmColumns])
            .select(symptomCount)
            .where('a.id', '=', id)
            .executeTakeFirst();
          return row && listed(row);
        },
      },
    );
    return ok(page);
  });

  /** Refuses unknown or out-of-scope ids (404) and a batch where every alarm already had it done (409). */
  const assertActionable = async (scope: DataScope, ids: number[], done: 'acknowledgedAt' | 'clearedAt', doneMsg: string) => {
    const unique = [...new Set(ids)];
    const rows = await alarmsWithDevices(app.db, scope)
      .select(['a.id', `a.${done}`])
      .where('a.id', 'in', unique)
      .execute();
    if (rows.length !== unique.length) throw notFound('告警');
    if (rows.every((row) => row[done] !== null)) throw conflict(doneMsg);
    return unique;
  };

  /** Stamps who, when and their note on the alarms not yet acknowledged: concurrent calls count each alarm once. */
  const acknowledge = async (trx: Transaction<Database>, ids: number[], userName: string, note: string): Promise<number> => {
    const now = Date.now();
    const rows = await trx
      .updateTable('hotelAlarm')
      .set({ acknowledgedAt: now, acknowledgedBy: userName, acknowledgeNote: note })
      .where('id', 'in', ids)
      .where('acknowledgedAt', 'is', null)
      .returning('id')
      .execute();
    const acknowledged = rows.map((row) => row.id);
    const deviceOf = await devicesOfAlarms(trx, app.dialect, acknowledged);
    await publishByUnit(
      trx,
      app.dialect,
      acknowledged,
      (id) => deviceOf.get(id) ?? 0,
      (alarmIds) => ({ kind: 'alarm-acknowledged', alarmIds, by: userName, at: now }),
    );
    return rows.length;
  };

  defineRoute(app, '/hotel/alarm/acknowledge', 'resource', async (request) => {
    const ids = await assertActionable(currentScope(request), request.body.ids, 'acknowledgedAt', '告警已确认，不能重复确认');
    const count = await app.db.transaction().execute((trx) => acknowledge(trx, ids, currentUser(request).userName, request.body.note));
    return ok({ count }, `已确认 ${count} 条告警`);
  });

  defineRoute(app, '/hotel/alarm/batch/acknowledge', 'resource', async (request) => {
    const me = currentUser(request);
    await assertHoldsPath(app.db, me, '/hotel/alarm/acknowledge');
    const scope = currentScope(request);
    const { ids, note } = request.body;
    const count = await app.db.transaction().execute(async (trx) => {
      await checkEach(ids, async (id) => {
        const alarm = await alarmsWithDevices(trx, scope).select(['a.acknowledgedAt', 'a.clearedAt']).where('a.id', '=', id).executeTakeFirst();
        if (!alarm) throw notFound('告警');
        if (alarm.clearedAt !== null) throw conflict('告警已清除，无需确认');
        if (alarm.acknowledgedAt !== null) throw conflict('告警已确认，不能重复确认');
      });
      return acknowledge(trx, ids, me.userName, note);
    });
    return ok({ count }, `已确认 ${count} 条告警`);
  });

  defineRoute(app, '/hotel/alarm/clear', 'resource', async (request) => {
    const ids = await assertActionable(currentScope(request), request.body.ids, 'clearedAt', '告警已清除，不能重复清除');
    const userName = currentUser(request).userName;
    // The channels told of these alarms hear of the clear, queued in the clear's own transaction.
    const count = await app.db.transaction().execute(async (trx) => {
      const at = Date.now();
      const rows = await trx.updateTable('hotelAlarm').set({ clearedAt: at, clearedBy: userName }).where('id', 'in', ids).where('clearedAt', 'is', null).returning('id').execute();
      await announceAlarmEvent(trx, app.dialect, { event: 'clear', alarmIds: rows.map((row) => row.id), at }, userName);
      return rows.length;
    });
    app.notifications.wake();
    return ok({ count }, `已清除 ${count} 条告警`);
  });

  defineRoute(app, '/hotel/alarm/timeout/inquire', 'resource', async () => {
    const types = await app.db.selectFrom('sysDict').select(['value', 'label']).where('code', '=', 'device_type').where('state', '=', 1).orderBy('sort').orderBy('id').execute();
    const timeouts = new Map((await app.db.selectFrom('hotelDeviceTypeTimeout').select(['type', 'minutes']).execute()).map((row) => [row.type, row.minutes]));
    return ok({
      defaultMinutes: await sweepMinutes(app.db),
      types: types.map((type) => ({ type: type.value, label: type.label, minutes: timeouts.get(type.value) ?? null })),
    });
  });

  defineRoute(app, '/hotel/alarm/timeout/edit', 'resource', async (request) => {
    const { type, minutes } = request.body;
    await assertKnownDeviceType(app.db, type);
    if (minutes === null) {
      await app.db.deleteFrom('hotelDeviceTypeTimeout').where('type', '=', type).execute();
    } else {
      await app.db
        .insertInto('hotelDeviceTypeTimeout')
        .values({ type, minutes, updatedAt: Date.now() })
        .onConflict((oc) => oc.column('type').doUpdateSet({ minutes, updatedAt: Date.now() }))
        .execute();
    }
    const label = await app.db.selectFrom('sysDict').select('label').where('code', '=', 'device_type').where('value', '=', type).executeTakeFirst();
    return ok({ type, label: label?.label ?? type, minutes }, '保存成功');
  });

  defineRoute(app, '/hotel/device/status', 'resource', async (request) => {
    const { id } = request.body;
    const scope = currentScope(request);
    const device = await app.db
      .selectFrom('hotelDevicePresence as p')
      .innerJoin('hotelDevice as d', 'd.id', 'p.id')
      .$call(inScope(scope, ALARM_SCOPE))
      .select(['p.online', 'p.onlineSince', 'p.offlineSince', 'p.lastSeenAt'])
      .where('p.id', '=', id)
      .executeTakeFirst();
    if (!device) throw notFound('设备');
    const history = app.db.selectFrom('hotelDeviceTransition').where('deviceId', '=', id);
    const transitions = await fetchPage(
      request.body,
      () => history.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      (limit, offset) => history.select(['id', 'online', 'at', 'cause']).orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    );
    const alarms = await alarmsWithDevices(app.db, scope)
      .select([...alarmColumns])
      .select(symptomCount)
      .where('a.deviceId', '=', id)
      .orderBy('a.startedAt', 'desc')
      .orderBy('a.id', 'desc')
      .limit(RECENT_ALARMS)
      .execute();
    return ok({ ...device, transitions, alarms: alarms.map(listed) });
  });
  return Promise.resolve();
}
