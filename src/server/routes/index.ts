/** Every API feature, registered under /api. A feature folder is named as its menu element. */
import type { FastifyInstance } from 'fastify';
import { verifyRoutes } from './sys/verify';
import { panelRoutes } from './sys/panel';
import { userRoutes } from './sys/user';
import { roleRoutes } from './sys/role';
import { menuRoutes } from './sys/menu';
import { dictRoutes } from './sys/dict';
import { scheduleRoutes } from './sys/schedule';
import { deviceRoutes } from './hotel/device';
import { advancedRoutes } from './hotel/advanced';
import { locationRoutes } from './hotel/location';
import { alarmRoutes } from './hotel/alarm';
import { operationRoutes } from './monitor/operation';
import { loginRoutes } from './monitor/login';
import { onlineRoutes } from './monitor/online';
import { channelRoutes } from './monitor/channel';
import { messageRoutes } from './monitor/message';
import { ruleRoutes } from './monitor/rule';
import { maintenanceRoutes } from './monitor/maintenance';
import { opsRoutes } from './ops';
import { eventRoutes } from './events';
import { acceptXlsxUploads } from '../lib/xlsx-import';

export async function apiRoutes(app: FastifyInstance): Promise<void> {
  acceptXlsxUploads(app);
  await app.register(verifyRoutes);
  await app.register(panelRoutes);
  await app.register(userRoutes);
  await app.register(roleRoutes);
  await app.register(menuRoutes);
  await app.register(dictRoutes);
  await app.register(scheduleRoutes);
  await app.register(deviceRoutes);
  await app.register(locationRoutes);
  await app.register(alarmRoutes);
  await app.register(advancedRoutes);
  await app.register(operationRoutes);
  await app.register(loginRoutes);
  await app.register(onlineRoutes);
  await app.register(channelRoutes);
  await app.register(messageRoutes);
  await app.register(ruleRoutes);
  await app.register(maintenanceRoutes);
  await app.register(opsRoutes);
  await app.register(eventRoutes);
  app.setNotFoundHandler({}, (_request, reply) => reply.send({ code: 404, msg: '接口不存在', data: null }));
}
