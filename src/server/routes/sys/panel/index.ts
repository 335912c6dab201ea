/** The dashboard (sys/panel): counts on indexed columns and the chart series (charts.ts). */
import type { FastifyInstance } from 'fastify';
import { defineRoute, ok } from '../../../lib/route';
import { PANEL_ALARMS } from '../../../../contract/sys/panel';
import { devicesByType, onlineHistory, scheduleRunsPerDay, signInsPerDay } from './charts';

export function panelRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  defineRoute(app, '/sys/panel/inquire', 'resource', async () => {
    const { db } = app;
    const now = Date.now();
    const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }) => Number((await query.executeTakeFirstOrThrow()).n);
    const [users, usersEnabled, roles, devices, devicesOnline, schedulesEnabled, schedulesFailedLastRun, activeSessions] = await Promise.all([
      count(db.selectFrom('sysUser').select((eb) => eb.fn.countAll<number>().as('n'))),
      count(
        db
          .selectFrom('sysUser')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('state', '=', 1),
      ),
      count(db.selectFrom('sysRole').select((eb) => eb.fn.countAll<number>().as('n'))),
      count(db.selectFrom('hotelDevice').select((eb) => eb.fn.countAll<number>().as('n'))),
      count(
        db
          .selectFrom('hotelDevicePresence')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('online', '=', 1),
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
      app.sessions.countActive(now),
    ]);
    // Open (not cleared) alarms: their count and the latest few, for the 告警 card.
    const activeAlarms = db.selectFrom('hotelAlarm as a').innerJoin('hotelDevice as d', 'd.id', 'a.deviceId').where('a.clearedAt', 'is', null);
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
      onlineHistory(db, now, { online: devicesOnline, total: devices }),
      signInsPerDay(db, now),
      scheduleRunsPerDay(db, now),
      devicesByType(db),
    ]);
    return ok({
      users,
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
