/**
 * Menus (sys/menu) and, on the same screen, the resources under each menu. A menu's parent must
 * exist and must not be the menu itself or one of its descendants, so the tree stays a tree.
 */
import type { FastifyInstance } from 'fastify';
import { defineRoute, ok } from '../../../lib/route';
import { invalid, staleEdit } from '../../../lib/errors';
import { descendantIds, findMenu, inquireMenus } from './repository';
import { resourceRoutes } from './resources';
import { menuAuditTarget, resourceAuditTarget } from './audit-target';

const PARENT = '上级菜单';

export function menuRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.audit.targets.register('menu', menuAuditTarget);
  app.audit.targets.register('resource', resourceAuditTarget);
  defineRoute(app, '/sys/menu/inquire', 'resource', async (request) => ok(await inquireMenus(app.db, request.body)));

  defineRoute(app, '/sys/menu/creation', 'resource', async (request) => {
    const menu = request.body;
    if (menu.pid !== null) await findMenu(app.db, menu.pid, PARENT);
    const now = Date.now();
    const { id } = await app.db
      .insertInto('sysMenu')
      .values({ ...menu, createdAt: now, updatedAt: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return ok(await findMenu(app.db, id), '菜单添加成功');
  });

  defineRoute(app, '/sys/menu/edit', 'resource', async (request) => {
    const { id, version, ...menu } = request.body;
    await app.db.transaction().execute(async (trx) => {
      await findMenu(trx, id);
      if (menu.pid !== null) {
        await findMenu(trx, menu.pid, PARENT);
        if (menu.pid === id || (await descendantIds(trx, [id])).has(menu.pid)) {
          throw invalid('上级菜单不能是当前菜单或它的下级菜单');
        }
      }
      const result = await trx
        .updateTable('sysMenu')
        .set({ ...menu, updatedAt: Date.now(), version: version + 1 })
        .where('id', '=', id)
        .where('version', '=', version)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw staleEdit();
    });
    return ok(await findMenu(app.db, id), '修改成功');
  });

  resourceRoutes(app);
  done();
}
