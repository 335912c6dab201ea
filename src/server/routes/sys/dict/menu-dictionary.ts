/**
 * `/sys/dict/resource/inquire {menuId}`: the enabled dictionary entries bound to a menu's field
 * resources. Every screen reads its select options and value labels from here. Any signed-in user
 * may ask, but only for a menu they can see.
 */
import type { FastifyInstance } from 'fastify';
import { currentUser, defineRoute, ok } from '../../../lib/route';
import { forbidden } from '../../../lib/errors';
import { authorisedMenu } from '../verify/authority';

const FIELD_PREFIX = 'field_';

export async function menuDictionaryRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, '/sys/dict/resource/inquire', 'session', async (request) => {
    const me = currentUser(request);
    const { menuId } = request.body;
    if (!me.builtin) {
      const visible = await authorisedMenu(app.db, me);
      if (!visible.some((menu) => menu.id === menuId)) throw forbidden('没有权限查看该菜单的数据字典');
    }
    const rows = await app.db
      .selectFrom('sysDictResource as dr')
      .innerJoin('sysResource as r', 'r.id', 'dr.resourceId')
      .innerJoin('sysDict as d', 'd.id', 'dr.dictId')
      .select(['r.id as resourceId', 'r.type', 'd.id as dictId', 'd.code', 'd.label', 'd.value', 'd.sort'])
      .where('r.menuId', '=', menuId)
      .where('r.type', 'like', `${FIELD_PREFIX}%`)
      .where('d.state', '=', 1)
      .orderBy('r.id')
      .orderBy('d.sort')
      .orderBy('d.id')
      .execute();
    return ok(rows.map(({ type, ...row }) => ({ ...row, field: type.slice(FIELD_PREFIX.length) })));
  });
}
