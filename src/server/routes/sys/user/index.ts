/**
 * Users (sys/user): list, create, edit, detail, and an administrator's password reset. Disabling a
 * user or resetting their password ends their sessions at once; the escalation guards of
 * role/grants decide which users an operator may act on (none richer than themselves) and which
 * roles they may hand out.
 */
import type { FastifyInstance } from 'fastify';
import { currentScope, currentUser, defineRoute, ok } from '../../../lib/route';
import { invalid, notFound, staleEdit } from '../../../lib/errors';
import { hasOrg, type DataScope } from '../../../lib/data-scope';
import { uniquely } from '../../../lib/conflicts';
import { assertPasswordPolicy } from '../../../lib/password-policy';
import { assertHoldsPath, assertMayAssignRole, assertMayManageUser, givableRoles } from '../../../services/grants';
import { checkEach } from '../../../lib/batch';
import { findUser, inquireUsers, usersInOrder } from '../../../services/users';
import { sendXlsx } from '../../../lib/xlsx';
import { formatTime } from '../../../../contract/time';
import { viewLabels } from '../../../services/dictionary-labels';
import { userImportRoutes } from './import';
import { userAuditTarget } from './audit-target';

/** A user goes only into a unit of the scope; outside it the unit answers as a missing one would. */
export function assertMayPlaceUser(scope: DataScope, orgId: number): void {
  if (!hasOrg(scope, orgId)) throw notFound('所属单位');
}

export function userRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.audit.targets.register('user', userAuditTarget);
  defineRoute(app, '/sys/user/inquire', 'resource', async (request) => ok(await inquireUsers(app, currentScope(request), request.body)));
  defineRoute(app, '/sys/user/role/choices', 'resource', async (request) => ok(await givableRoles(app.db, currentUser(request), currentScope(request))));

  defineRoute(app, '/sys/user/detail', 'resource', async (request) => ok(await findUser(app.db, currentScope(request), request.body.id)));

  defineRoute(app, '/sys/user/export', 'resource', async (request, reply) => {
    const labels = await viewLabels(app.db, 'sys/user');
    return sendXlsx(reply, {
      fileName: '用户列表',
      sheetName: '用户',
      columns: [
        { header: '用户名', value: (user) => user.userName },
        { header: '昵称', value: (user) => user.nickName },
        { header: '状态', width: 10, value: (user) => labels.labelOf('state', user.state) },
        { header: '角色', value: (user) => user.roleName ?? '' },
        { header: '创建时间', width: 20, value: (user) => formatTime(user.createdAt) },
        { header: '更新时间', width: 20, value: (user) => formatTime(user.updatedAt) },
      ],
      rows: usersInOrder(app, currentScope(request), request.body),
    });
  });

  userImportRoutes(app);

  defineRoute(app, '/sys/user/creation', 'resource', async (request) => {
    const me = currentUser(request);
    const scope = currentScope(request);
    const { userName, nickName, password, state, roleId } = request.body;
    const orgId = request.body.orgId ?? me.orgId;
    if (orgId === null) throw invalid('请选择所属单位');
    assertMayPlaceUser(scope, orgId);
    assertPasswordPolicy(password, userName);
    if (roleId !== null) await assertMayAssignRole(app.db, me, roleId, { scope, orgId });
    const passwordHash = await app.passwords.hash(password);
    const now = Date.now();
    const { id } = await uniquely(
      () =>
        app.db.insertInto('sysUser').values({ userName, nickName, passwordHash, state, roleId, orgId, createdAt: now, updatedAt: now }).returning('id').executeTakeFirstOrThrow(),
      `用户名 ${userName} 已存在`,
    );
    return ok(await findUser(app.db, scope, id), `账号添加成功：${userName}`);
  });

  defineRoute(app, '/sys/user/edit', 'resource', async (request) => {
    const me = currentUser(request);
    const scope = currentScope(request);
    const { id, nickName, state, roleId, version } = request.body;
    await app.db.transaction().execute(async (trx) => {
      const user = await findUser(trx, scope, id);
      await assertMayManageUser(trx, me, user);
      if (user.version !== version) throw staleEdit();
      if (id === me.userId && state !== 1) throw invalid('不能禁用自己的账号');
      const orgId = request.body.orgId ?? user.orgId;
      if (orgId !== user.orgId) {
        // Moving oneself could take one's own scope wider.
        if (id === me.userId) throw invalid('不能修改自己的所属单位');
        if (orgId !== null) assertMayPlaceUser(scope, orgId);
      }
      if (roleId !== user.roleId || orgId !== user.orgId) {
        // Leaving one's own role could lock the last administrator out.
        if (id === me.userId && roleId !== user.roleId) throw invalid('不能修改自己的角色');
        if (roleId !== null) await assertMayAssignRole(trx, me, roleId, { scope, orgId });
      }
      const result = await trx
        .updateTable('sysUser')
        .set({ nickName, state, roleId, orgId, updatedAt: Date.now(), version: version + 1 })
        .where('id', '=', id)
        .where('version', '=', version)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw staleEdit();
    });
    if (state !== 1) await app.sessions.revokeUser(id, 'disabled', { msg: `账号被 ${me.userName} 禁用` });
    return ok(await findUser(app.db, scope, id), '修改成功');
  });

  defineRoute(app, '/sys/user/batch/state', 'resource', async (request) => {
    const me = currentUser(request);
    await assertHoldsPath(app.db, me, '/sys/user/edit');
    const scope = currentScope(request);
    const { ids, state } = request.body;
    await app.db.transaction().execute(async (trx) => {
      await checkEach(ids, async (id) => {
        const user = await findUser(trx, scope, id);
        await assertMayManageUser(trx, me, user);
        if (id === me.userId && state !== 1) throw invalid('不能禁用自己的账号');
      });
      await trx
        .updateTable('sysUser')
        .set((eb) => ({ state, updatedAt: Date.now(), version: eb('version', '+', 1) }))
        .where('id', 'in', ids)
        .execute();
    });
    if (state !== 1) for (const id of ids) await app.sessions.revokeUser(id, 'disabled', { msg: `账号被 ${me.userName} 禁用` });
    return ok({ count: ids.length }, `已${state === 1 ? '启用' : '禁用'} ${ids.length} 个用户`);
  });

  defineRoute(app, '/sys/user/password/reset', 'resource', async (request) => {
    const me = currentUser(request);
    const { id, password } = request.body;
    const user = await findUser(app.db, currentScope(request), id);
    // One's own password changes only with the old one (/sys/user/password), so a borrowed
    // session cannot take the account over.
    if (id === me.userId) throw invalid('请通过“修改密码”修改自己的密码');
    await assertMayManageUser(app.db, me, user);
    assertPasswordPolicy(password, user.userName);
    const passwordHash = await app.passwords.hash(password);
    await app.db
      .updateTable('sysUser')
      .set((eb) => ({ passwordHash, updatedAt: Date.now(), version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .execute();
    await app.sessions.revokeUser(id, 'passwordChanged', { msg: `密码被 ${me.userName} 重置` });
    return ok(null, `已重置 ${user.userName} 的密码，该用户需重新登录`);
  });
  done();
}
