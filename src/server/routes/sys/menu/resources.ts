/**
 * Resources under a menu (managed on the sys/menu screen). An `api_*` resource guards the API
 * path in `path`, so that path decides who may call the route: only the built-in role may set or
 * move it, or an operator could point a resource they hold at a route they may not call. Writes go
 * through the access cache's `change`, which the authorization hook's copy of the paths follows.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { currentUser, defineRoute, ok, type SessionUser } from '../../../lib/route';
import { conflict, forbidden, invalid, notFound, staleEdit } from '../../../lib/errors';
import { uniquely } from '../../../lib/conflicts';
import { contains, defaultOrder, fetchPage, given, listOrder, ordered, type SortColumn } from '../../../lib/list-query';
import type { RESOURCE_SORT_KEYS } from '../../../../contract/sys/resource';
import { findMenu } from './repository';

type Db = Kysely<Database>;
const RESOURCE_COLUMNS = ['id', 'menuId', 'name', 'type', 'path', 'remark', 'version'] as const;
const RACE_CLASH = '资源类型或接口路径已存在';
/** The sort keys of a menu's resource list (contract RESOURCE_SORT_KEYS) and their columns. */
const RESOURCE_SORT: Record<(typeof RESOURCE_SORT_KEYS)[number], SortColumn> = { name: 'name', type: 'type', path: 'path' };
const RESOURCE_ORDER = defaultOrder(['id', 'id']);

function assertPathFitsType(type: string, path: string): void {
  const isApi = type.startsWith('api_');
  if (isApi && path === '') throw invalid('接口资源必须填写接口路径');
  if (!isApi && path !== '') throw invalid('只有接口资源（api_）可以填写接口路径');
}

function assertMaySetPath(operator: SessionUser, path: string, previous = ''): void {
  if (!operator.builtin && path !== previous) throw forbidden('只有超级管理员可以设置资源的接口路径');
}

/** Names which unique rule a write would break: one type per menu, one resource per API path. */
async function assertUnique(db: Db, resource: { menuId: number; type: string; path: string }, exceptId?: number): Promise<void> {
  const clash = await db
    .selectFrom('sysResource')
    .select(['menuId', 'type'])
    .where((eb) => eb.or([eb.and([eb('menuId', '=', resource.menuId), eb('type', '=', resource.type)]), ...(resource.path ? [eb('path', '=', resource.path)] : [])]))
    .$if(exceptId !== undefined, (q) => q.where('id', '<>', exceptId!))
    .executeTakeFirst();
  if (!clash) return;
  if (clash.menuId === resource.menuId && clash.type === resource.type) throw conflict(`该菜单下已有类型为 ${resource.type} 的资源`);
  throw conflict(`接口路径 ${resource.path} 已被其他资源使用`);
}

async function findResource(db: Db, id: number) {
  const resource = await db.selectFrom('sysResource').select(RESOURCE_COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!resource) throw notFound('资源');
  return resource;
}

export function resourceRoutes(app: FastifyInstance): void {
  defineRoute(app, '/sys/resource/menu/inquire', 'resource', async (request) => {
    const { size, current, params, sort } = request.body;
    await findMenu(app.db, params.menuId);
    const order = listOrder(sort, RESOURCE_SORT, RESOURCE_ORDER);
    const filtered = app.db
      .selectFrom('sysResource')
      .where('menuId', '=', params.menuId)
      .$if(given(params.name), (q) => q.where((eb) => contains(eb.ref('name'), params.name!)))
      .$if(given(params.type), (q) => q.where((eb) => contains(eb.ref('type'), params.type!)));
    return ok(
      await fetchPage(
        { size, current },
        () => filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        (limit, offset) => ordered(filtered.select(RESOURCE_COLUMNS), order).limit(limit).offset(offset).execute(),
      ),
    );
  });

  defineRoute(app, '/sys/resource/inquire', 'resource', async (request) => {
    const { menuId } = request.body;
    await findMenu(app.db, menuId);
    return ok(await app.db.selectFrom('sysResource').select(RESOURCE_COLUMNS).where('menuId', '=', menuId).orderBy('id').execute());
  });

  defineRoute(app, '/sys/resource/creation', 'resource', async (request) => {
    const { menuId, name, type, path, remark } = request.body;
    await findMenu(app.db, menuId);
    assertPathFitsType(type, path);
    assertMaySetPath(currentUser(request), path);
    await assertUnique(app.db, { menuId, type, path });
    const now = Date.now();
    const { id } = await uniquely(
      () =>
        app.access.change((trx) =>
          trx.insertInto('sysResource').values({ menuId, name, type, path, remark, createdAt: now, updatedAt: now }).returning('id').executeTakeFirstOrThrow(),
        ),
      RACE_CLASH,
    );
    return ok(await findResource(app.db, id), '资源添加成功');
  });

  defineRoute(app, '/sys/resource/edit', 'resource', async (request) => {
    const { id, name, type, path, remark, version } = request.body;
    const existing = await findResource(app.db, id);
    assertPathFitsType(type, path);
    assertMaySetPath(currentUser(request), path, existing.path);
    if (existing.version !== version) throw staleEdit();
    await assertUnique(app.db, { menuId: existing.menuId, type, path }, id);
    const result = await uniquely(
      () =>
        app.access.change((trx) =>
          trx
            .updateTable('sysResource')
            .set({ name, type, path, remark, updatedAt: Date.now(), version: version + 1 })
            .where('id', '=', id)
            .where('version', '=', version)
            .executeTakeFirst(),
        ),
      RACE_CLASH,
    );
    if (Number(result.numUpdatedRows) === 0) throw staleEdit();
    return ok(await findResource(app.db, id), '修改成功');
  });
}
