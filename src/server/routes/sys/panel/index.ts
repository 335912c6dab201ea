/**
 * The dashboard (sys/panel): counts on indexed columns and the chart series (charts.ts), within the
 * caller's data scope: users, devices, alarms, sign-ins and the device chart count only the scope's
 * rows. The 24 h online samples and the live session count are group-wide: a narrower caller gets
 * the live online point of their devices alone and no session count.
 */
import type { FastifyInstance } from 'fastify';
import { currentScope, defineRoute, ok } from '../../../lib/route';
import { inScope } from '../../../lib/data-scope';
import { PANEL_ALARMS } from '../../../../contract/sys/panel';
import { devicesByType, onlineHistory, scheduleRunsPerDay, signInsPerDay } from './charts';

export function panelRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  defineRoute(app, '/sys/panel/inquire', 'resource', async (request) => {
    const { db } = app;
    const scope = currentScope(request);
    const whole = scope.kind === 'all';
    const users = () => db.selectFrom('sysUser').$call(inScope(scope, { org: 'orgId', self: 'id' }));
    // Deleted devices keep their row for their history; they are no longer devices of the hotel.
    const devicesOf = () =>
      db
        .selectFrom('hotelDevice')
        .where('hotelDevice.deletedAt', 'is', null)
        .$call(inScope(scope, { org: 'hotelDevice.orgId', self: 'hotelDevice.createdBy' }));
    const now = Date.now();
    const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }) => Number((await query.executeTakeFirstOrThrow()).n);
    const [userCount, usersEnabled, roles, devices, devicesOnline, schedulesEnabled, schedulesFailedLastRun, activeSessions] = await Promise.all([
      count(users().select((eb) => eb.fn.countAll<number>().as('n'))),
      count(
        users()
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('state', '=', 1),
      ),
      count(db.selectFrom('sysRole').select((eb) => eb.fn.countAll<number>().as('n'))),
      count(devicesOf().select((eb) => eb.fn.countAll<number>().as('n'))),
      whole
        ? count(
            db
              .selectFrom('hotelDevicePresence')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('online', '=', 1),
          )
        : count(
            devicesOf()
              .innerJoin('hotelDevicePresence as p', 'p.id', 'hotelDevice.id')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('p.online', '=', 1),
          ),
      count(
        db
          .selectFrom('sysSchedule')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('state', '=', 1),
      ),
      count(
        db
          .selectFrom('sysSchedule')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('lastOutcome', '=', 'failed'),
      ),
      whole ? app.sessions.countActive(now) : Promise.resolve(0),
    ]);
    // Open (not cleared) alarms that are causes: their count and the latest few, for the 告警 card
    // (a symptom, such as a device unreachable behind its gateway, is folded under its cause).
    const activeAlarms = db
      .selectFrom('hotelAlarm as a')
      .innerJoin('hotelDevice as d', 'd.id', 'a.deviceId')
      .$call(inScope(scope, { org: 'd.orgId', self: 'd.createdBy' }))
      .where('a.clearedAt', 'is', null)
      .where('a.causeId', 'is', null);
    const [alarmsActive, latestAlarms] = await Promise.all([
      count(activeAlarms.select((eb) => eb.fn.countAll<number>().as('n'))),
      activeAlarms
        .select(['a.id', 'a.type', 'a.severity', 'a.message', 'a.lastAt', 'a.count', 'd.name as deviceName', 'd.sn as deviceSn'])
        .orderBy('a.lastAt', 'desc')
        .orderBy('a.id', 'desc')
        .limit(PANEL_ALARMS)
        .execute(),
    ]);
    const [history, signIns, runs, byType] = await Promise.all([
      whole ? onlineHistory(db, now, { online: devicesOnline, total: devices }) : [{ at: now, online: devicesOnline, total: devices }],
      signInsPerDay(db, scope, now),
      scheduleRunsPerDay(db, now),
      devicesByType(db, scope),
    ]);
    return ok({
      users: userCount,
      usersEnabled,
      roles,
      devices,
      devicesOnline,
      devicesOffline: devices - devicesOnline,
      schedulesEnabled,
      schedulesFailedLastRun,
      activeSessions,
      onlineHistory: history,
      signInsPerDay: signIns,
      scheduleRunsPerDay: runs,
      devicesByType: byType,
      alarmsActive,
      latestAlarms,
    });
  });
  done();
}
