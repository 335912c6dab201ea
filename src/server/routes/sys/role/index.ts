/**
 * Roles (sys/role): the role itself, its grants (auth bindings, changed in one transaction) and
 * its users (a user has one role, so binding moves them). The role's user list is
 * /sys/user/inquire with params.roleId.
 */
import type { FastifyInstance } from 'fastify';
import { currentScope, currentUser, defineRoute, ok } from '../../../lib/route';
import { holdsRow } from '../../../lib/data-scope';
import { forbidden, invalid, notFound, staleEdit } from '../../../lib/errors';
import { uniquely } from '../../../lib/conflicts';
import { assertMayAssignRole, assertMayManageUser, assertScopeGivable, everyGrant, findRole, storedGrants } from '../../../services/grants';
import { changeGrants } from './authorization';
import { findRoleRecord, inquireMenuResources, inquireRoles, rolesInOrder } from './repository';
import { sendXlsx } from '../../../lib/xlsx';
import { formatTime } from '../../../../contract/time';
import { viewLabels } from '../../../services/dictionary-labels';
import { inquireRoleUsers } from '../../../services/users';
import { roleAuditTarget } from './audit-target';

export function roleRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.audit.targets.register('role', roleAuditTarget);
  defineRoute(app, '/sys/role/inquire', 'resource', async (request) => ok(await inquireRoles(app.db, currentScope(request), request.body)));

  defineRoute(app, '/sys/role/export', 'resource', async (request, reply) => {
    const labels = await viewLabels(app.db, 'sys/role');
    return sendXlsx(reply, {
      fileName: '角色列表',
      sheetName: '角色',
      columns: [
        { header: '角色名称', value: (role) => role.name },
        { header: '备注', width: 30, value: (role) => role.remark },
        { header: '状态', width: 10, value: (role) => labels.labelOf('state', role.state) },
        { header: '内置', width: 8, value: (role) => (role.builtin === 1 ? '是' : '否') },
        { header: '用户数', width: 10, value: (role) => role.userCount },
        { header: '创建时间', width: 20, value: (role) => formatTime(role.createdAt) },
        { header: '更新时间', width: 20, value: (role) => formatTime(role.updatedAt) },
      ],
      rows: rolesInOrder(app.db, currentScope(request), request.body),
    });
  });

  defineRoute(app, '/sys/role/creation', 'resource', async (request) => {
    const { name, remark, state } = request.body;
    const dataScope = request.body.dataScope ?? 'all';
    const units = dataScope === 'custom' ? (request.body.scopeOrgIds ?? []) : [];
    await assertScopeGivable(app.db, currentScope(request), dataScope, units);
    const now = Date.now();
    const { id } = await app.access.change(async (trx) => {
      const role = await uniquely(
        () => trx.insertInto('sysRole').values({ name, remark, state, dataScope, createdAt: now, updatedAt: now }).returning('id').executeTakeFirstOrThrow(),
        `角色名称 ${name} 已存在`,
      );
      if (units.length > 0)
        await trx
          .insertInto('sysRoleOrg')
          .values(units.map((orgId) => ({ roleId: role.id, orgId })))
          .execute();
      return role;
    });
    return ok(await findRoleRecord(app.db, currentScope(request), id), '角色添加成功');
  });

  defineRoute(app, '/sys/role/edit', 'resource', async (request) => {
    const me = currentUser(request);
    const scope = currentScope(request);
    const { id, name, remark, state, version } = request.body;
    await app.access.change(async (trx) => {
      const role = await findRole(trx, id);
      if (role.builtin === 1) {
        if (!me.builtin) throw forbidden('只有超级管理员可以修改超级管理员角色');
        if (state !== 1) throw invalid('超级管理员角色不能停用');
      }
      if (id === me.roleId && state !== 1) throw invalid('不能停用自己所属的角色');
      const dataScope = request.body.dataScope ?? role.dataScope;
      const stored = (await trx.selectFrom('sysRoleOrg').select('orgId').where('roleId', '=', id).execute()).map((u) => u.orgId);
      const units = dataScope !== 'custom' ? [] : (request.body.scopeOrgIds ?? stored);
      // A form sends the scope back as it was: only a different one counts as a change.
      const scopeChanges = dataScope !== role.dataScope || units.length !== stored.length || units.some((unit) => !stored.includes(unit));
      if (scopeChanges) {
        // A scoped operator cannot widen the role they act with, nor hand out a scope wider than theirs.
        if (id === me.roleId && !me.builtin && scope.kind !== 'all') throw forbidden('不能修改自己所属角色的数据范围');
        if (role.builtin === 1 && dataScope !== 'all') throw invalid('超级管理员角色的数据范围只能是全部数据');
        await assertScopeGivable(trx, scope, dataScope, units);
        await trx.deleteFrom('sysRoleOrg').where('roleId', '=', id).execute();
        if (units.length > 0)
          await trx
            .insertInto('sysRoleOrg')
            .values(units.map((orgId) => ({ roleId: id, orgId })))
            .execute();
      }
      const result = await uniquely(
        () =>
          trx
            .updateTable('sysRole')
            .set({ name, remark, state, dataScope, updatedAt: Date.now(), version: version + 1 })
            .where('id', '=', id)
            .where('version', '=', version)
            .executeTakeFirst(),
        `角色名称 ${name} 已存在`,
      );
      if (Number(result.numUpdatedRows) === 0) throw staleEdit();
    });
    // As with a disabled user: its users are signed out now, not when their tokens expire.
    if (state !== 1) await app.sessions.revokeRole(id);
    return ok(await findRoleRecord(app.db, currentScope(request), id), '修改成功');
  });

  defineRoute(app, '/sys/menu/resources', 'resource', async (request) => ok(await inquireMenuResources(app.db, request.body)));

  defineRoute(app, 'GET /sys/role/auth', 'resource', async (request) => {
    const role = await findRole(app.db, request.query.roleId);
    // The built-in role holds everything without stored bindings; the dialog shows it so.
    return ok(role.builtin === 1 ? await everyGrant(app.db) : await storedGrants(app.db, role.id));
  });

  defineRoute(app, '/sys/role/auth', 'resource', async (request) => ok(await app.access.change((trx) => changeGrants(trx, currentUser(request), request.body)), '授权成功'));

  defineRoute(app, '/sys/role/user/inquire', 'resource', async (request) => {
    await findRole(app.db, request.body.params.roleId);
    return ok(await inquireRoleUsers(app, currentScope(request), request.body));
  });

  defineRoute(app, '/sys/role/bind/user', 'resource', async (request) => {
    const me = currentUser(request);
    const scope = currentScope(request);
    // A user's own record is theirs under 仅本人.
    const inUserScope = (user: { id: number; orgId: number | null }) => holdsRow(scope, { orgId: user.orgId, createdBy: user.id });
    const { userId, roleId } = request.body;
    await app.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('sysUser').select(['id', 'roleId', 'orgId']).where('id', '=', userId).executeTakeFirst();
      if (!user || !inUserScope(user)) throw notFound('用户');
      await assertMayAssignRole(trx, me, roleId, { scope, orgId: user.orgId });
      if (user.roleId === roleId) return;
      // Leaving one's own role could lock the last administrator out.
      if (userId === me.userId) throw invalid('不能修改自己的角色');
      await assertMayManageUser(trx, me, user);
      await trx
        .updateTable('sysUser')
        .set((eb) => ({ roleId, updatedAt: Date.now(), version: eb('version', '+', 1) }))
        .where('id', '=', userId)
        .execute();
    });
    return ok(null, '绑定成功');
  });

  defineRoute(app, '/sys/role/unbind/user', 'resource', async (request) => {
    const me = currentUser(request);
    const scope = currentScope(request);
    // A user's own record is theirs under 仅本人.
    const inUserScope = (user: { id: number; orgId: number | null }) => holdsRow(scope, { orgId: user.orgId, createdBy: user.id });
    const { userId, roleId } = request.body;
    await app.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('sysUser').select(['id', 'roleId', 'orgId']).where('id', '=', userId).executeTakeFirst();
      if (!user || !inUserScope(user)) throw notFound('用户');
      await findRole(trx, roleId);
      if (user.roleId !== roleId) throw invalid('该用户不属于此角色');
      if (userId === me.userId) throw invalid('不能修改自己的角色');
      await assertMayManageUser(trx, me, user);
      await trx
        .updateTable('sysUser')
        .set((eb) => ({ roleId: null, updatedAt: Date.now(), version: eb('version', '+', 1) }))
        .where('id', '=', userId)
        .execute();
    });
    return ok(null, '解绑成功');
  });
  done();
}
