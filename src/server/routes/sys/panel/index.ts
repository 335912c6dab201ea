/** The dashboard's figures (sys/panel): one small count query per figure, all on indexed columns. */
import type { FastifyInstance } from 'fastify';
import { defineRoute, ok } from '../../../lib/route';

export async function panelRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, '/sys/panel/inquire', 'resource', async () => {
    const { db } = app;
    const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }) =>
      Number((await query.executeTakeFirstOrThrow()).n);
    const [users, usersEnabled, roles, devices, devicesOnline, schedulesEnabled, schedulesFailedLastRun, activeSessions] = await Promise.all([
      count(db.selectFrom('sysUser').select((eb) => eb.fn.countAll<number>().as('n'))),
      count(db.selectFrom('sysUser').select((eb) => eb.fn.countAll<number>().as('n')).where('state', '=', 1)),
      count(db.selectFrom('sysRole').select((eb) => eb.fn.countAll<number>().as('n'))),
      count(db.selectFrom('hotelDevice').select((eb) => eb.fn.countAll<number>().as('n'))),
      count(db.selectFrom('hotelDevice').select((eb) => eb.fn.countAll<number>().as('n')).where('online', '=', 1)),
      count(db.selectFrom('sysSchedule').select((eb) => eb.fn.countAll<number>().as('n')).where('state', '=', 1)),
      count(db.selectFrom('sysSchedule').select((eb) => eb.fn.countAll<number>().as('n')).where('lastOutcome', '=', 'failed')),
      app.sessions.countActive(),
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
    });
  });
}
