/**
 * Sign-in, sign-out, own password change and the authorised menu (the sys/verify feature). Every
 * sign-in attempt leaves one login-log record with its outcome; the answer never says more than
 * before (an unknown user and a wrong password answer alike).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser, defineRoute, ok } from '../../../lib/route';
import { AppError, invalid, tooManyAttempts } from '../../../lib/errors';
import { Code } from '../../../../contract/constants';
import { assertPasswordPolicy } from '../../../lib/password-policy';
import { authorisedMenu } from '../../../services/grants';
import { userAgentOf } from '../../../lib/user-agent';

/** Records a refused sign-in of a known user with the right password and answers the 403 to throw. */
async function refuse(app: FastifyInstance, request: FastifyRequest, user: { id: number; userName: string }, outcome: 'disabled' | 'noRole', msg: string): Promise<AppError> {
  await app.audit.signIn(request, { userId: user.id, userName: user.userName, outcome, msg });
  return new AppError(Code.forbidden, msg);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const WRONG_CREDENTIALS = '用户名或密码错误';
const OLD_PASSWORD_GUESSES = '原密码错误次数过多';

export function verifyRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  defineRoute(app, '/sys/user/verify', 'public', async (request, reply) => {
    const { userName, password } = request.body;
    const presented = app.throttle.deviceTokenIn(request.headers.cookie);
    let attempt: Awaited<ReturnType<typeof app.throttle.begin>>;
    try {
      attempt = await app.throttle.begin(app.throttle.keys(userName, request.ip, presented));
    } catch (error) {
      if (error instanceof AppError) await app.audit.signIn(request, { userId: null, userName, outcome: 'throttled', msg: error.message });
      throw error;
    }

    const user = await app.db
      .selectFrom('sysUser as u')
      .leftJoin('sysRole as r', 'r.id', 'u.roleId')
      .select(['u.id', 'u.userName', 'u.nickName', 'u.passwordHash', 'u.state', 'r.id as roleId', 'r.name as roleName', 'r.state as roleState', 'r.builtin'])
      .where('u.userName', '=', userName)
      .executeTakeFirst();
    const passwordMatches = user ? await app.passwords.verify(password, user.passwordHash) : (await app.passwords.burn(password), false);
    if (!user || !passwordMatches) {
      await app.audit.signIn(
        request,
        user ? { userId: user.id, userName, outcome: 'wrongPassword', msg: '密码错误' } : { userId: null, userName, outcome: 'unknownUser', msg: '用户不存在' },
      );
      await sleep(attempt.failureDelayMs);
      throw new AppError(Code.invalid, WRONG_CREDENTIALS);
    }
    const deviceToken = presented ?? app.throttle.newDeviceToken();
    await app.throttle.succeeded(attempt, deviceToken);
    reply.header('set-cookie', app.throttle.deviceCookie(deviceToken, request.protocol === 'https'));
    if (app.passwords.needsRehash(user.passwordHash)) {
      // Not a staff edit: the version (the edit dialog's optimistic lock) stays.
      const passwordHash = await app.passwords.hash(password);
      await app.db.updateTable('sysUser').set({ passwordHash }).where('id', '=', user.id).where('passwordHash', '=', user.passwordHash).execute();
    }
    // Only someone who knows the password learns why the account cannot sign in.
    if (user.state !== 1) throw await refuse(app, request, user, 'disabled', '账号已被禁用，请联系管理员');
    if (user.roleId === null) throw await refuse(app, request, user, 'noRole', '用户未绑定角色');
    if (user.roleState !== 1) throw await refuse(app, request, user, 'disabled', '用户所属角色已停用，请联系管理员');

    const token = await app.sessions.issue(user.id, request.ip, userAgentOf(request.headers));
    await app.audit.signIn(request, { userId: user.id, userName: user.userName, outcome: 'success', msg: '登录成功' });
    const menu = await authorisedMenu(app.db, { roleId: user.roleId, builtin: user.builtin === 1 });
    return ok({ role: { id: user.roleId, name: user.roleName ?? '' }, menu, token, userName: user.userName, nickName: user.nickName }, '登录成功');
  });

  defineRoute(app, '/sys/user/logout', 'session', async (request) => {
    await app.sessions.revoke(currentUser(request).sessionId, 'signOut');
    return ok(null, '已退出登录');
  });

  defineRoute(app, '/sys/user/password', 'session', async (request) => {
    const me = currentUser(request);
    const { oldPassword, newPassword } = request.body;
    // Old-password guesses are throttled like sign-ins, counted per user before the check, so a
    // borrowed session cannot be used to guess the password; the guess that reaches the limit
    // also ends that session.
    const guesses = `password:${me.userId}`;
    const limit = app.config.throttle.userMaxFailures;
    const counter = await app.throttle.count(guesses, limit);
    app.throttle.assertWithin(counter, limit, Date.now(), OLD_PASSWORD_GUESSES);
    const row = await app.db.selectFrom('sysUser').select(['passwordHash', 'version']).where('id', '=', me.userId).executeTakeFirstOrThrow();
    if (!(await app.passwords.verify(oldPassword, row.passwordHash))) {
      if (counter.attempts >= limit) {
        await app.sessions.revoke(me.sessionId, 'forced', OLD_PASSWORD_GUESSES);
        throw tooManyAttempts(`${OLD_PASSWORD_GUESSES}，当前登录已失效，请重新登录`);
      }
      throw invalid('原密码不正确');
    }
    await app.throttle.reset(guesses);
    if (oldPassword === newPassword) throw invalid('新密码不能与原密码相同');
    assertPasswordPolicy(newPassword, me.userName);
    const passwordHash = await app.passwords.hash(newPassword);
    await app.db
      .updateTable('sysUser')
      .set({ passwordHash, updatedAt: Date.now(), version: row.version + 1 })
      .where('id', '=', me.userId)
      .execute();
    await app.sessions.revokeUser(me.userId, 'passwordChanged', { except: me.sessionId, msg: '用户修改了自己的密码，其他会话失效' });
    return ok(null, '密码修改成功，其他设备上的登录已失效');
  });

  defineRoute(app, 'GET /sys/menu/authority', 'session', async (request) => {
    const me = currentUser(request);
    return ok(await authorisedMenu(app.db, { roleId: me.roleId, builtin: me.builtin }));
  });

  defineRoute(app, 'GET /sys/capabilities', 'session', () => ok({ mqtt: app.mqtt !== null }));
  done();
}
