/** Sign-in, sign-out, own password change and the authorised menu (the sys/verify feature). */
import type { FastifyInstance } from 'fastify';
import { currentUser, defineRoute, ok } from '../../../lib/route';
import { AppError, invalid } from '../../../lib/errors';
import { Code } from '../../../../contract/constants';
import { assertPasswordPolicy } from '../../../plugins/app/passwords';
import { LoginThrottle } from '../../../plugins/app/throttle';
import { authorisedMenu } from './authority';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const WRONG_CREDENTIALS = '用户名或密码错误';

export async function verifyRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, '/sys/user/verify', 'public', async (request) => {
    const { userName, password } = request.body;
    const keys = LoginThrottle.keys(userName, request.ip);
    await app.throttle.assertAllowed(keys);

    const user = await app.db
      .selectFrom('sysUser as u')
      .leftJoin('sysRole as r', 'r.id', 'u.roleId')
      .select(['u.id', 'u.userName', 'u.nickName', 'u.passwordHash', 'u.state', 'r.id as roleId', 'r.name as roleName', 'r.state as roleState', 'r.builtin'])
      .where('u.userName', '=', userName)
      .executeTakeFirst();
    const passwordMatches = user ? await app.passwords.verify(password, user.passwordHash) : (await app.passwords.burn(password), false);
    if (!user || !passwordMatches) {
      const delay = await app.throttle.recordFailure(keys);
      await sleep(delay);
      throw new AppError(Code.invalid, WRONG_CREDENTIALS);
    }
    // Only someone who knows the password learns why the account cannot sign in.
    if (user.state !== 1) throw new AppError(Code.forbidden, '账号已被禁用，请联系管理员');
    if (user.roleId === null) throw new AppError(Code.forbidden, '用户未绑定角色');
    if (user.roleState !== 1) throw new AppError(Code.forbidden, '用户所属角色已停用，请联系管理员');

    await app.throttle.recordSuccess(keys);
    const token = await app.sessions.issue(user.id, request.ip);
    const menu = await authorisedMenu(app.db, { roleId: user.roleId, builtin: user.builtin === 1 });
    return ok(
      { role: { id: user.roleId, name: user.roleName ?? '' }, menu, token, userName: user.userName, nickName: user.nickName },
      '登录成功',
    );
  });

  defineRoute(app, '/sys/user/logout', 'session', async (request) => {
    await app.sessions.revoke(currentUser(request).sessionId);
    return ok(null, '已退出登录');
  });

  defineRoute(app, '/sys/user/password', 'session', async (request) => {
    const me = currentUser(request);
    const { oldPassword, newPassword } = request.body;
    const row = await app.db.selectFrom('sysUser').select(['passwordHash', 'version']).where('id', '=', me.userId).executeTakeFirstOrThrow();
    if (!(await app.passwords.verify(oldPassword, row.passwordHash))) throw invalid('原密码不正确');
    if (oldPassword === newPassword) throw invalid('新密码不能与原密码相同');
    assertPasswordPolicy(newPassword, me.userName);
    const passwordHash = await app.passwords.hash(newPassword);
    await app.db
      .updateTable('sysUser')
      .set({ passwordHash, updatedAt: Date.now(), version: row.version + 1 })
      .where('id', '=', me.userId)
      .execute();
    await app.sessions.revokeUser(me.userId, me.sessionId);
    return ok(null, '密码修改成功，其他设备上的登录已失效');
  });

  defineRoute(app, 'GET /sys/menu/authority', 'session', async (request) => {
    const me = currentUser(request);
    return ok(await authorisedMenu(app.db, { roleId: me.roleId, builtin: me.builtin }));
  });
}
