/** Every API feature, registered under /api. A feature folder is named as its menu element. */
import type { FastifyInstance } from 'fastify';
import { verifyRoutes } from './sys/verify';
import { panelRoutes } from './sys/panel';
import { menuDictionaryRoutes } from './sys/dict/menu-dictionary';

export async function apiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(verifyRoutes);
  await app.register(panelRoutes);
  await app.register(menuDictionaryRoutes);
  app.setNotFoundHandler({}, (_request, reply) => reply.send({ code: 404, msg: '接口不存在', data: null }));
}
