/**
 * Issue 2, server side: sign-in outcomes, sessions (expiry, revocation), password change, login
 * throttling, the authority menu, and the fail-closed authorization hook.
 */
import { describeOnEachDatabase, ADMIN_PASSWORD, type TestApp } from './support/harness';
import { Code } from '../../src/contract/constants';
import { LoginThrottle } from '../../src/server/plugins/app/throttle';

const PASSWORD = 'Front-Desk-2026';

/** A role granted the given menus (and every resource under them), with one user in it. */
async function createRoleWithUser(
  t: TestApp,
  roleName: string,
  userName: string,
  menuElements: string[],
  options: { roleState?: number; userState?: number; withRole?: boolean } = {},
) {
  const { db } = t.database;
  const now = Date.now();
  const role = await db
    .insertInto('sysRole')
    .values({ name: roleName, remark: '', state: options.roleState ?? 1, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const element of menuElements) {
    const menu = await db.selectFrom('sysMenu').select('id').where('element', '=', element).executeTakeFirstOrThrow();
    await db.insertInto('sysRoleAuth').values({ roleId: role.id, type: 'menu', resource: menu.id }).execute();
    const resources = await db.selectFrom('sysResource').select('id').where('menuId', '=', menu.id).execute();
    for (const resource of resources) {
      await db.insertInto('sysRoleAuth').values({ roleId: role.id, type: 'resource', resource: resource.id }).execute();
    }
  }
  await db
    .insertInto('sysUser')
    .values({
      userName,
      nickName: `${userName}昵称`,
      passwordHash: await t.app.passwords.hash(PASSWORD),
      state: options.userState ?? 1,
      roleId: options.withRole === false ? null : role.id,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  return role.id;
}

describeOnEachDatabase('sign-in', (ctx) => {
  it('answers token, names, role and the authorised menu, and stores only a hash of the token', async () => {
    const answer = await ctx().call('/sys/user/verify', { userName: 'admin', password: ADMIN_PASSWORD });
    expect(answer.code).toBe(Code.ok);
    expect(answer.data).toMatchObject({ userName: 'admin', nickName: '系统管理员', role: { name: '超级管理员' } });
    expect(answer.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const elements = answer.data.menu.map((menu) => menu.element).filter(Boolean);
    expect(elements).toEqual(expect.arrayContaining(['sys/panel', 'sys/user', 'sys/role', 'sys/menu', 'sys/dict', 'sys/schedule', 'hotel/device', 'hotel/advanced']));
    const stored = await ctx().database.db.selectFrom('sysSession').select('tokenHash').execute();
    expect(stored.map((row) => row.tokenHash)).not.toContain(answer.data.token);
  });

  it('refuses a wrong password and an unknown user with the same message', async () => {
    const wrong = await ctx().call('/sys/user/verify', { userName: 'admin', password: 'not-the-password' });
    const unknown = await ctx().call('/sys/user/verify', { userName: 'nobody', password: 'whatever-123' });
    expect(wrong).toEqual({ code: Code.invalid, msg: '用户名或密码错误', data: null });
    expect(unknown).toEqual({ code: Code.invalid, msg: '用户名或密码错误', data: null });
  });

  it('names the empty field', async () => {
    expect(await ctx().call('/sys/user/verify', { userName: '', password: 'x' })).toMatchObject({ code: Code.invalid, msg: '用户名不能为空' });
    expect(await ctx().call('/sys/user/verify', { userName: 'admin' })).toMatchObject({ code: Code.invalid, msg: '密码不能为空' });
  });

  it('refuses a user with no bound role: 用户未绑定角色', async () => {
    await createRoleWithUser(ctx(), '无角色测试', 'norole', [], { withRole: false });
    expect(await ctx().call('/sys/user/verify', { userName: 'norole', password: PASSWORD })).toMatchObject({ code: Code.forbidden, msg: '用户未绑定角色' });
  });

  it('refuses a disabled user and a user whose role is disabled', async () => {
    await createRoleWithUser(ctx(), '禁用用户角色', 'disabled1', ['hotel/device'], { userState: 0 });
    await createRoleWithUser(ctx(), '停用的角色', 'roleoff1', ['hotel/device'], { roleState: 0 });
    expect(await ctx().call('/sys/user/verify', { userName: 'disabled1', password: PASSWORD })).toMatchObject({ code: Code.forbidden, msg: '账号已被禁用，请联系管理员' });
    expect(await ctx().call('/sys/user/verify', { userName: 'roleoff1', password: PASSWORD })).toMatchObject({ code: Code.forbidden, msg: '用户所属角色已停用，请联系管理员' });
  });

  it('gives a role only its granted menus, with their parents', async () => {
    await createRoleWithUser(ctx(), '前台', 'frontdesk', ['hotel/device']);
    const answer = await ctx().call('/sys/user/verify', { userName: 'frontdesk', password: PASSWORD });
    expect(answer.code).toBe(Code.ok);
    expect(answer.data.menu.map((menu) => menu.name).sort()).toEqual(['设备管理', '酒店管理'].sort());
    const authority = await ctx().call('GET /sys/menu/authority', null, answer.data.token);
    expect(authority.data).toEqual(answer.data.menu);
  });

  it('shows a public menu (isAuth 0) to every signed-in user', async () => {
    await createRoleWithUser(ctx(), '只读', 'readonly1', []);
    await ctx().database.db.updateTable('sysMenu').set({ isAuth: 0 }).where('element', '=', 'sys/panel').execute();
    try {
      const token = await ctx().login('readonly1', PASSWORD);
      const authority = await ctx().call('GET /sys/menu/authority', null, token);
      expect(authority.data.map((menu) => menu.name).sort()).toEqual(['系统管理', '控制台'].sort());
    } finally {
      await ctx().database.db.updateTable('sysMenu').set({ isAuth: 1 }).where('element', '=', 'sys/panel').execute();
    }
  });
});

describeOnEachDatabase('sessions', (ctx) => {
  it('rejects a missing, malformed or unknown bearer token with code 401', async () => {
    expect((await ctx().call('GET /sys/menu/authority', null)).code).toBe(Code.unauthorized);
    const malformed = await ctx().app.inject({ method: 'GET', url: '/api/sys/menu/authority', headers: { authorization: 'Token abc' } });
    expect(malformed.json().code).toBe(Code.unauthorized);
    expect((await ctx().call('GET /sys/menu/authority', null, 'made-up-token')).code).toBe(Code.unauthorized);
  });

  it('revokes the token at logout', async () => {
    const token = await ctx().login();
    expect((await ctx().call('/sys/user/logout', {}, token)).code).toBe(Code.ok);
    expect(await ctx().call('GET /sys/menu/authority', null, token)).toMatchObject({ code: Code.unauthorized });
  });

  it('expires an idle session and a session past its absolute lifetime', async () => {
    const idle = await ctx().login();
    const old = await ctx().login();
    const { db } = ctx().database;
    const sessions = await db.selectFrom('sysSession').select(['id']).where('revokedAt', 'is', null).orderBy('id', 'desc').limit(2).execute();
    const [oldId, idleId] = sessions.map((row) => row.id);
    await db
      .updateTable('sysSession')
      .set({ lastSeenAt: Date.now() - (ctx().config.session.idleMinutes + 1) * 60_000 })
      .where('id', '=', idleId)
      .execute();
    await db
      .updateTable('sysSession')
      .set({ expiresAt: Date.now() - 1000 })
      .where('id', '=', oldId)
      .execute();
    expect((await ctx().call('GET /sys/menu/authority', null, idle)).code).toBe(Code.unauthorized);
    expect((await ctx().call('GET /sys/menu/authority', null, old)).code).toBe(Code.unauthorized);
  });

  it('cuts off a user disabled while signed in', async () => {
    await createRoleWithUser(ctx(), '夜班', 'night1', ['hotel/device']);
    const token = await ctx().login('night1', PASSWORD);
    await ctx().database.db.updateTable('sysUser').set({ state: 0 }).where('userName', '=', 'night1').execute();
    expect((await ctx().call('GET /sys/menu/authority', null, token)).code).toBe(Code.unauthorized);
  });

  it('changes the own password: checks the old one, applies the policy, revokes the other sessions', async () => {
    await createRoleWithUser(ctx(), '改密', 'changer', ['hotel/device']);
    const current = await ctx().login('changer', PASSWORD);
    const other = await ctx().login('changer', PASSWORD);
    expect(await ctx().call('/sys/user/password', { oldPassword: 'wrong-old-1', newPassword: 'Brand-New-Pass-1' }, current)).toMatchObject({
      code: Code.invalid,
      msg: '原密码不正确',
    });
    expect(await ctx().call('/sys/user/password', { oldPassword: PASSWORD, newPassword: 'short' }, current)).toMatchObject({
      code: Code.invalid,
      msg: '新密码长度不能少于 8 个字符',
    });
    expect(await ctx().call('/sys/user/password', { oldPassword: PASSWORD, newPassword: 'changer-2026' }, current)).toMatchObject({
      code: Code.invalid,
      msg: '密码不能包含用户名',
    });
    expect(await ctx().call('/sys/user/password', { oldPassword: PASSWORD, newPassword: 'password123' }, current)).toMatchObject({
      code: Code.invalid,
      msg: '密码过于常见，请换一个更难猜的密码',
    });
    const changed = await ctx().call('/sys/user/password', { oldPassword: PASSWORD, newPassword: 'Brand-New-Pass-1' }, current);
    expect(changed).toMatchObject({ code: Code.ok, msg: '密码修改成功，其他设备上的登录已失效' });
    expect((await ctx().call('GET /sys/menu/authority', null, current)).code).toBe(Code.ok);
    expect((await ctx().call('GET /sys/menu/authority', null, other)).code).toBe(Code.unauthorized);
    expect((await ctx().call('/sys/user/verify', { userName: 'changer', password: PASSWORD })).code).toBe(Code.invalid);
    await ctx().login('changer', 'Brand-New-Pass-1');
  });
});

describeOnEachDatabase(
  'login throttling',
  (ctx) => {
    it('locks an account after repeated failures, even for the right password, and says when to retry', async () => {
      for (let attempt = 0; attempt < 3; attempt++) {
        expect((await ctx().call('/sys/user/verify', { userName: 'admin', password: `wrong-${attempt}` })).code).toBe(Code.invalid);
      }
      const locked = await ctx().call('/sys/user/verify', { userName: 'admin', password: ADMIN_PASSWORD });
      expect(locked.code).toBe(Code.tooManyAttempts);
      expect(locked.msg).toMatch(/^登录失败次数过多，请 \d+ 分钟后再试$/);
    });

    it('forgets an account’s failures after a successful sign-in', async () => {
      await ctx().database.db.deleteFrom('sysLoginFailure').execute();
      await ctx().call('/sys/user/verify', { userName: 'admin', password: 'wrong-a' });
      await ctx().call('/sys/user/verify', { userName: 'admin', password: 'wrong-b' });
      await ctx().login();
      await ctx().call('/sys/user/verify', { userName: 'admin', password: 'wrong-c' });
      await ctx().call('/sys/user/verify', { userName: 'admin', password: 'wrong-d' });
      expect((await ctx().call('/sys/user/verify', { userName: 'admin', password: ADMIN_PASSWORD })).code).toBe(Code.ok);
    });

    it('slows repeated failures before locking', async () => {
      await ctx().database.db.deleteFrom('sysLoginFailure').execute();
      const throttle = new LoginThrottle(ctx().database.db, { userMaxFailures: 5, accountMaxFailures: 100, ipMaxFailures: 100, windowMinutes: 15, lockMinutes: 15, delayMs: 250 });
      const delays = [];
      for (let attempt = 0; attempt < 4; attempt++) {
        delays.push((await throttle.begin(throttle.keys('slow', '192.0.2.1', null))).failureDelayMs);
      }
      expect(delays).toEqual([0, 0, 250, 500]);
    });

    it('locks a key on reaching the limit, and starts it again once the lock or the window has passed', async () => {
      const throttle = new LoginThrottle(ctx().database.db, { userMaxFailures: 3, accountMaxFailures: 100, ipMaxFailures: 100, windowMinutes: 15, lockMinutes: 10, delayMs: 0 });
      const t0 = Date.UTC(2030, 0, 1);
      const counts = [];
      for (let i = 0; i < 4; i++) counts.push(await throttle.count('unit:lock', 3, t0 + i));
      expect(counts.map((c) => c.attempts)).toEqual([1, 2, 3, 4]);
      expect(counts[1].lockedUntil).toBe(0);
      expect(counts[2].lockedUntil).toBe(t0 + 2 + 10 * 60_000);
      expect(counts[3].lockedUntil).toBe(t0 + 2 + 10 * 60_000);
      expect(await throttle.count('unit:lock', 3, t0 + 2 + 10 * 60_000)).toEqual({ attempts: 1, lockedUntil: 0 });
      await throttle.count('unit:window', 3, t0);
      expect((await throttle.count('unit:window', 3, t0 + 14 * 60_000)).attempts).toBe(2);
      expect((await throttle.count('unit:window', 3, t0 + 29 * 60_000)).attempts).toBe(1);
    });
  },
  { throttle: { userMaxFailures: 3, accountMaxFailures: 100, ipMaxFailures: 100, windowMinutes: 15, lockMinutes: 15, delayMs: 0 } },
);

describeOnEachDatabase(
  'authorization hook',
  (ctx) => {
    it('refuses a resource route that no resource guards, even for the administrator (fail closed)', async () => {
      const token = await ctx().login();
      expect(
        await ctx()
          .app.inject({ method: 'POST', url: '/api/test/unmapped', headers: { authorization: `Bearer ${token}` }, payload: {} })
          .then((r) => r.json()),
      ).toEqual({
        code: Code.forbidden,
        msg: '接口未登记访问级别，拒绝访问',
        data: null,
      });
    });

    it('refuses a role without the resource and admits it once granted, on the very next call', async () => {
      const roleId = await createRoleWithUser(ctx(), '设备员', 'devops1', ['hotel/device']);
      const token = await ctx().login('devops1', PASSWORD);
      expect(await ctx().call('/sys/panel/inquire', {}, token)).toMatchObject({ code: Code.forbidden, msg: '没有权限执行该操作' });
      const panel = await ctx().database.db.selectFrom('sysResource').select('id').where('path', '=', '/sys/panel/inquire').executeTakeFirstOrThrow();
      const grant = await ctx().call('/sys/role/auth', { roleId, grant: [{ type: 'resource', resource: panel.id }], revoke: [] }, await ctx().login());
      expect(grant.code).toBe(Code.ok);
      expect((await ctx().call('/sys/panel/inquire', {}, token)).code).toBe(Code.ok);
    });

    it('refuses a resource route whose path is not registered as a resource', async () => {
      await createRoleWithUser(ctx(), '无资源', 'nores1', ['hotel/device']);
      const token = await ctx().login('nores1', PASSWORD);
      const answer = await ctx().app.inject({ method: 'POST', url: '/api/test/unregistered', headers: { authorization: `Bearer ${token}` }, payload: {} });
      expect(answer.json()).toMatchObject({ code: Code.forbidden, msg: '接口未登记为资源，拒绝访问' });
    });

    it('answers unknown API paths with code 404', async () => {
      const answer = await ctx().app.inject({ method: 'POST', url: '/api/sys/nothing/here', payload: {} });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ code: Code.notFound, msg: '接口不存在', data: null });
    });
  },
  {},
  {
    extend: (app) => {
      app.post('/api/test/unmapped', () => ({ code: 200, msg: 'should never run', data: null }));
      app.post('/api/test/unregistered', { config: { access: 'resource' } }, () => ({ code: 200, msg: 'should never run', data: null }));
    },
  },
);
