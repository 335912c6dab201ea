/**
 * `/sys/dict/resource/inquire {menuId}`: the enabled dictionary entries bound to a menu's field
 * resources. Every screen reads its select options and value labels from here. Any signed-in user
 * may ask, but only for a menu they can see. Exports and imports read the same entries
 * (services/dictionary-labels.ts), so a file says 启用 where the screen does.
 */
import type { FastifyInstance } from 'fastify';
import { currentUser, defineRoute, ok } from '../../../lib/route';
import { forbidden } from '../../../lib/errors';
import { menuDictEntries } from '../../../services/dictionary-labels';
import { authorisedMenu } from '../../../services/grants';

export function menuDictionaryRoutes(app: FastifyInstance): void {
  defineRoute(app, '/sys/dict/resource/inquire', 'session', async (request) => {
    const me = currentUser(request);
    const { menuId } = request.body;
    if (!me.builtin) {
      const visible = await authorisedMenu(app.db, me);
      if (!visible.some((menu) => menu.id === menuId)) throw forbidden('没有权限查看该菜单的数据字典');
    }
    return ok(await menuDictEntries(app.db, menuId));
  });
}
