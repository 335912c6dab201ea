/**
 * 组织管理 (sys/org): the organisation tree units, users, buildings and devices belong to. Everything
 * here stays within the caller's data scope: units outside it answer as missing, and new or moved
 * units go only under a unit whose subtree the scope covers (a unit-only scope cannot add units).
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { currentScope, defineRoute, ok } from '../../../lib/route';
import { conflict, invalid, notFound, staleEdit } from '../../../lib/errors';
import { uniquely } from '../../../lib/conflicts';
import { SYSTEM_SCOPE, mayPlaceUnder, type DataScope } from '../../../lib/data-scope';
import { findOrg } from './repository';
import { orgTree } from '../../../services/scoped-trees';
import { orgAuditTarget } from './audit-target';

const SAVED = '保存成功';
const TAKEN = '单位编码已存在，或同一上级下名称已存在';

/** The parent a unit may be created under or moved to: in scope with its subtree. */
async function assertParent(db: Kysely<Database>, scope: DataScope, pid: number): Promise<void> {
  const parent = await db.selectFrom('sysOrg').select('id').where('id', '=', pid).executeTakeFirst();
  if (!parent || !mayPlaceUnder(scope, pid)) throw notFound('上级单位');
}

const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string }> }) => Number((await query.executeTakeFirstOrThrow()).n);

export function orgRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.audit.targets.register('org', orgAuditTarget);

  defineRoute(app, 'GET /sys/org/tree', 'resource', async (request) => ok(await orgTree(app.db, currentScope(request))));

  defineRoute(app, '/sys/org/creation', 'resource', async (request) => {
    const scope = currentScope(request);
    const { pid, name, kind, code, state, sort, remark } = request.body;
    await assertParent(app.db, scope, pid);
    const now = Date.now();
    const { id } = await uniquely(
      () =>
        app.access.change((trx) =>
          trx.insertInto('sysOrg').values({ pid, name, kind, code, state, sort, remark, createdAt: now, updatedAt: now }).returning('id').executeTakeFirstOrThrow(),
        ),
      TAKEN,
    );
    // The new unit lies under a parent whose subtree the scope covers; the scope, built before it existed, does not list it yet.
    return ok(await findOrg(app.db, SYSTEM_SCOPE, id), SAVED);
  });

  defineRoute(app, '/sys/org/edit', 'resource', async (request) => {
    const scope = currentScope(request);
    const { id, pid, name, kind, code, state, sort, remark, version } = request.body;
    const current = await findOrg(app.db, scope, id);
    if (current.pid === null && pid !== null) throw invalid('根单位不能移到其他单位下');
    const target = pid ?? current.pid;
    if (pid !== null && pid !== current.pid) {
      await assertParent(app.db, scope, pid);
      // A unit cannot move under itself or its own subtree.
      for (let at: number | null = pid; at !== null;) {
        if (at === id) throw invalid('不能把单位移到它自己或它的下级单位下');
        const parent: { pid: number | null } | undefined = await app.db.selectFrom('sysOrg').select('pid').where('id', '=', at).executeTakeFirst();
        at = parent?.pid ?? null;
      }
    }
    if (current.version !== version) throw staleEdit();
    const row = await uniquely(
      () =>
        app.access.change((trx) =>
          trx
            .updateTable('sysOrg')
            .set({ pid: target, name, kind, code, state, sort, remark, updatedAt: Date.now(), version: version + 1 })
            .where('id', '=', id)
            .where('version', '=', version)
            .returning('id')
            .executeTakeFirst(),
        ),
      TAKEN,
    );
    if (!row) throw staleEdit();
    return ok(await findOrg(app.db, scope, id), SAVED);
  });

  defineRoute(app, '/sys/org/removal', 'resource', async (request) => {
    const scope = currentScope(request);
    const { id } = request.body;
    await app.access.change(async (trx) => {
      const unit = await findOrg(trx, scope, id);
      if (unit.pid === null) throw invalid('根单位不能删除');
      const label = `单位「${unit.name}」`;
      const n = (table: 'sysOrg' | 'sysUser' | 'hotelLocation', column: 'pid' | 'orgId') =>
        count(
          trx
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where(column, '=', id),
        );
      if ((await n('sysOrg', 'pid')) > 0) throw conflict(`${label}下还有下级单位，请先删除下级单位`);
      const users = await n('sysUser', 'orgId');
      if (users > 0) throw conflict(`${label}下还有 ${users} 个用户，请先把用户移到其他单位`);
      const buildings = await n('hotelLocation', 'orgId');
      if (buildings > 0) throw conflict(`${label}下还有 ${buildings} 栋楼，请先删除或移走`);
      const devices = await count(
        trx
          .selectFrom('hotelDevice')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('orgId', '=', id)
          .where('deletedAt', 'is', null),
      );
      if (devices > 0) throw conflict(`${label}下还有 ${devices} 台设备，请先把设备移到其他单位`);
      // Deleted devices keep their history, not their unit.
      await trx.updateTable('hotelDevice').set({ orgId: null }).where('orgId', '=', id).execute();
      await trx.deleteFrom('sysRoleOrg').where('orgId', '=', id).execute();
      await trx.deleteFrom('sysOrg').where('id', '=', id).execute();
    });
    return ok(null, '删除成功');
  });
  done();
}
