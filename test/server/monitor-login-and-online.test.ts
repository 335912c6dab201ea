/**
 * Issue 9, sessions: the login log (every sign-in outcome, sign-out, every way a session ends, with
 * browser and OS), the online list and force logout (refusals, and the forced user's next call
 * answering 401 on another API instance), and device status changes in the operation log.
 */
import { describeOnEachDatabase, dialects, twoInstances, type TestApp } from './support/harness';
import { createRole, createUser, expectOk, menuGrants, signedInOperator, USER_PASSWORD } from './support/sys-fixtures';
import { runTask } from '../../src/server/services/scheduler/tasks';
import type { Row } from '../../src/server/db/schema';

const CHROME_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

async function signIn(app: TestApp, userName: string, password: string, userAgent = CHROME_ON_WINDOWS) {
  const response = await app.app.inject({ method: 'POST', url: '/api/sys/user/verify', headers: { 'user-agent': userAgent }, payload: { userName, password } });
  return response.json<{ code: number; msg: string; data: { token: string } | null }>();
}

async function loginHead(app: TestApp): Promise<number> {
  return (await app.database.db.selectFrom('sysAuditChain').select('headId').where('chain', '=', 'login').executeTakeFirstOrThrow()).headId;
}

const loginsAfter = (app: TestApp, id: number) => app.database.db.selectFrom('sysLoginLog').selectAll().where('id', '>', id).orderBy('id').execute();

describeOnEachDatabase('monitor/login and monitor/online', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });

  /** Runs something and answers the login-log records it left. */
  async function loginRecordsOf(action: () => Promise<unknown>): Promise<Array<Row<'sysLoginLog'>>> {
    const before = await loginHead(ctx());
    await action();
    return loginsAfter(ctx(), before);
  }

  describe('login log', () => {
    it('records every sign-in outcome once, with browser and OS', async () => {
      const app = ctx();
      const role = await createRole(app, admin, '前台', []);
      const user = await createUser(app, admin, 'front.desk', role.id);
      await createUser(app, admin, 'no.role', null);
      const disabled = await createUser(app, admin, 'gone.user', role.id);
      expectOk(await app.call('/sys/user/edit', { id: disabled.id, nickName: 'x', state: 0, roleId: role.id, version: 0 }, admin));

      const cases: Array<[string, string, Partial<Row<'sysLoginLog'>>]> = [
        ['front.desk', USER_PASSWORD, { outcome: 'success', userId: user.id, msg: '登录成功' }],
        ['front.desk', 'Wrong-Passw0rd-1', { outcome: 'wrongPassword', userId: user.id }],
        ['nobody.here', 'Wrong-Passw0rd-1', { outcome: 'unknownUser', userId: null, userName: 'nobody.here' }],
        ['no.role', USER_PASSWORD, { outcome: 'noRole', msg: '用户未绑定角色' }],
        ['gone.user', USER_PASSWORD, { outcome: 'disabled', msg: '账号已被禁用，请联系管理员' }],
      ];
      for (const [userName, password, expected] of cases) {
        const records = await loginRecordsOf(() => signIn(app, userName, password));
        expect(records).toHaveLength(1);
        expect(records[0]).toMatchObject({ event: 'signIn', userName, ip: '127.0.0.1', browser: 'Chrome 126', os: 'Windows 10', ...expected });
      }

      const records = await loginRecordsOf(async () => {
        for (let i = 0; i < 6; i += 1) await signIn(app, 'locked.out', 'Wrong-Passw0rd-1', FIREFOX_ON_LINUX);
      });
      expect(records.map((r) => r.outcome)).toEqual(['unknownUser', 'unknownUser', 'unknownUser', 'unknownUser', 'unknownUser', 'throttled']);
      expect(records[5]).toMatchObject({ browser: 'Firefox 128', os: 'Linux', msg: expect.stringContaining('登录失败次数过多') });
    });

    it('records sign-out and every way a session ends', async () => {
      const app = ctx();
      const operator = await signedInOperator(app, admin, 'ends.user', []);
      const other = (await signIn(app, 'ends.user', USER_PASSWORD, FIREFOX_ON_LINUX)).data!.token;

      const signOut = await loginRecordsOf(() => app.call('/sys/user/logout', {}, operator.token));
      expect(signOut).toEqual([expect.objectContaining({ event: 'signOut', outcome: 'success', userName: 'ends.user' })]);

      // Expiry is noticed when the token is next presented, and reported once.
      await app.database.db
        .updateTable('sysSession')
        .set({ expiresAt: Date.now() - 1 })
        .where('userId', '=', operator.user.id)
        .where('revokedAt', 'is', null)
        .execute();
      const expired = await loginRecordsOf(async () => {
        expect(await app.call('GET /sys/menu/authority', null, other)).toMatchObject({ code: 401 });
        expect(await app.call('GET /sys/menu/authority', null, other)).toMatchObject({ code: 401 });
      });
      expect(expired).toEqual([expect.objectContaining({ event: 'sessionEnd', outcome: 'expired', browser: 'Firefox 128', os: 'Linux' })]);

      // Own password change ends the other sessions; an administrator's reset ends them all.
      const first = await app.login('ends.user', USER_PASSWORD);
      await app.login('ends.user', USER_PASSWORD);
      const changed = await loginRecordsOf(() => app.call('/sys/user/password', { oldPassword: USER_PASSWORD, newPassword: 'Changed-Passw0rd-8' }, first));
      expect(changed).toEqual([expect.objectContaining({ event: 'sessionEnd', outcome: 'passwordChanged', userName: 'ends.user' })]);
      const reset = await loginRecordsOf(() => app.call('/sys/user/password/reset', { id: operator.user.id, password: USER_PASSWORD }, admin));
      expect(reset).toEqual([expect.objectContaining({ outcome: 'passwordChanged', msg: '密码被 admin 重置' })]);

      const again = await app.login('ends.user', USER_PASSWORD);
      const { version } = expectOk(await app.call('/sys/user/detail', { id: operator.user.id }, admin));
      const disabled = await loginRecordsOf(() => app.call('/sys/user/edit', { id: operator.user.id, nickName: 'x', state: 0, roleId: operator.role.id, version }, admin));
      expect(disabled).toEqual([expect.objectContaining({ outcome: 'disabled', msg: '账号被 admin 禁用' })]);
      expect(await app.call('GET /sys/menu/authority', null, again)).toMatchObject({ code: 401 });
    });

    it('reports sessions that expired unseen when the purge task deletes them', async () => {
      const app = ctx();
      const operator = await signedInOperator(app, admin, 'purged.user', []);
      await app.database.db
        .updateTable('sysSession')
        .set({ lastSeenAt: Date.now() - 24 * 3_600_000 })
        .where('userId', '=', operator.user.id)
        .execute();
      const records = await loginRecordsOf(() => runTask('session.purgeExpired', {}, { app: app.app, now: Date.now() }));
      expect(records).toEqual([expect.objectContaining({ event: 'sessionEnd', outcome: 'expired', userName: 'purged.user' })]);
      expect(await app.database.db.selectFrom('sysSession').select('id').where('userId', '=', operator.user.id).execute()).toEqual([]);
    });

    it('lists, filters, exports and checks the integrity of the login log', async () => {
      const app = ctx();
      const page = expectOk(await app.call('/monitor/login/inquire', { size: 100, current: 1, params: { userName: 'front.desk' } }, admin));
      expect(page.records.map((r) => r.outcome)).toEqual(['wrongPassword', 'success']);
      expect(page).toMatchObject({ total: 2, totalIsLowerBound: false });
      const throttled = expectOk(await app.call('/monitor/login/inquire', { size: 100, current: 1, params: { outcome: 'throttled', ip: '127.0.0.1' } }, admin));
      expect(throttled.records).toEqual([expect.objectContaining({ userName: 'locked.out', browser: 'Firefox 128' })]);
      const ends = expectOk(await app.call('/monitor/login/inquire', { size: 100, current: 1, params: { event: 'sessionEnd' } }, admin));
      expect(new Set(ends.records.map((r) => r.outcome))).toEqual(new Set(['expired', 'passwordChanged', 'disabled']));

      const response = await app.app.inject({
        method: 'POST',
        url: '/api/monitor/login/export',
        headers: { authorization: `Bearer ${admin}` },
        payload: { params: { userName: 'front.desk' } },
      });
      expect(response.headers['content-type']).toContain('spreadsheetml');
      expect(response.rawPayload.length).toBeGreaterThan(1000);

      expect(expectOk(await app.call('/monitor/login/integrity', null, admin))).toMatchObject({ ok: true });
      const victim = page.records[0].id;
      await app.database.db.updateTable('sysLoginLog').set({ outcome: 'success' }).where('id', '=', victim).execute();
      expect(expectOk(await app.call('/monitor/login/integrity', null, admin))).toMatchObject({ ok: false, firstBroken: { id: victim } });
      await app.database.db.updateTable('sysLoginLog').set({ outcome: 'wrongPassword' }).where('id', '=', victim).execute();
    });
  });

  describe('online users', () => {
    it('lists live sessions with browser, OS, times and which one is the caller', async () => {
      const app = ctx();
      await signIn(app, 'front.desk', USER_PASSWORD, FIREFOX_ON_LINUX);
      const page = expectOk(await app.call('/monitor/online/inquire', { size: 100, current: 1 }, admin));
      const mine = page.records.filter((r) => r.current === 1);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ userName: 'admin', roleName: '超级管理员' });
      const desk = expectOk(await app.call('/monitor/online/inquire', { size: 100, current: 1, params: { userName: 'front' } }, admin));
      // The first test's sign-in (Chrome) and this one (Firefox), most recently active first.
      expect(desk.records.map((r) => [r.userName, r.roleName, r.browser, r.os, r.current])).toEqual([
        ['front.desk', '前台', 'Firefox 128', 'Linux', 0],
        ['front.desk', '前台', 'Chrome 126', 'Windows 10', 0],
      ]);
      const record = desk.records[0];
      expect(record.expiresAt).toBeGreaterThan(record.lastSeenAt);
      expect(record.signedInAt).toBeLessThanOrEqual(record.lastSeenAt);
      // Ended sessions are not online.
      expect(page.records.some((r) => r.userName === 'ends.user')).toBe(false);
    });

    it("force-logs-out one session or all of a user's, and refuses the own current session and richer users", async () => {
      const app = ctx();
      const watcher = await signedInOperator(app, admin, 'watcher', [...(await menuGrants(app, '/monitor/online')), ...(await menuGrants(app, '/sys/panel'))]);
      const adminSessions = expectOk(await app.call('/monitor/online/inquire', { size: 100, current: 1, params: { userName: 'admin' } }, admin)).records;
      const own = adminSessions.find((r) => r.current === 1)!;
      expect(await app.call('/monitor/online/revoke', { sessionId: own.sessionId }, admin)).toMatchObject({ code: 400, msg: '不能强制下线自己当前的会话，请使用退出登录' });
      // A built-in administrator is richer than the watcher.
      expect(await app.call('/monitor/online/revoke', { sessionId: own.sessionId }, watcher.token)).toMatchObject({ code: 403 });
      expect(await app.call('/monitor/online/revoke/user', { userId: 1 }, watcher.token)).toMatchObject({ code: 403 });

      const victim = (await signIn(app, 'front.desk', USER_PASSWORD)).data!.token;
      const sessions = expectOk(await app.call('/monitor/online/inquire', { size: 100, current: 1, params: { userName: 'front.desk' } }, watcher.token)).records;
      const before = await loginHead(app);
      const answer = await app.call('/monitor/online/revoke', { sessionId: sessions[0].sessionId }, watcher.token);
      expect(answer).toMatchObject({ code: 200, data: { count: 1 } });
      expect((await loginsAfter(app, before)).map((r) => [r.event, r.outcome, r.msg])).toEqual([['sessionEnd', 'forced', '被 watcher 强制下线']]);
      expect(await app.call('/monitor/online/revoke', { sessionId: sessions[0].sessionId }, watcher.token)).toMatchObject({ code: 404 });

      const all = await app.call('/monitor/online/revoke/user', { userId: sessions[0].userId }, watcher.token);
      expect(all).toMatchObject({ code: 200, data: { count: sessions.length - 1 } });
      expect(await app.call('GET /sys/menu/authority', null, victim)).toMatchObject({ code: 401 });

      // For oneself, all the other sessions and never the one asking.
      await app.login();
      const self = expectOk(await app.call('/monitor/online/revoke/user', { userId: 1 }, admin));
      expect(self.count).toBeGreaterThan(0);
      expectOk(await app.call('GET /sys/menu/authority', null, admin));
    });
  });

  describe('device status', () => {
    it('records going online and offline, not every heartbeat, visible per device', async () => {
      const app = ctx();
      const { device, deviceKey } = expectOk(await app.call('/hotel/device/creation', { name: '空调 1', sn: 'STATUS-0001', type: 'aircon', state: 1, remark: '' }, admin));
      const beat = () => app.app.inject({ method: 'POST', url: '/api/hotel/device/heartbeat', headers: { 'x-device-key': deviceKey }, payload: { sn: 'STATUS-0001' } });
      await beat();
      await beat();
      // The second beat's time is held back until the next flush (last-seen.ts): let it land
      // before ten quiet minutes are simulated.
      await app.app.lastSeen.flush();
      await app.database.db
        .updateTable('hotelDevicePresence')
        .set({ lastSeenAt: Date.now() - 10 * 60_000 })
        .where('id', '=', device.id)
        .execute();
      await runTask('device.offlineSweep', { minutes: 5 }, { app: app.app, now: Date.now() });
      await beat();

      const history = expectOk(
        await app.call('/monitor/operation/inquire', { size: 20, current: 1, params: { targetType: 'device', targetId: String(device.id) } }, admin),
      ).records;
      expect(history.map((r) => [r.operatorType, r.operatorName, r.action])).toEqual([
        ['device', 'STATUS-0001', '设备上线'],
        ['system', '系统', '设备离线'],
        ['device', 'STATUS-0001', '设备上线'],
        ['user', 'admin', '新增设备'],
      ]);
      expect(history[1]).toMatchObject({ module: '设备管理', targetLabel: '空调 1（STATUS-0001）', outcome: 'success' });
      const detail = expectOk(await app.call('/monitor/operation/detail', { id: history[1].id }, admin));
      expect(detail.changes).toEqual([{ field: 'online', title: '在线状态', before: 1, after: 0 }]);
    });
  });
});

describe.each(dialects())('force logout across API instances [%s]', (dialect) => {
  const instances = twoInstances(dialect);

  it('answers the forced user 401 on the other instance at its next call', async () => {
    const { a: first, b: second } = instances();
    const admin = await first.login();
    await createUser(first, admin, 'two.places', (await createRole(first, admin, '两地', [])).id);
    const token = await second.login('two.places', USER_PASSWORD);
    expectOk(await second.call('GET /sys/menu/authority', null, token));
    const session = expectOk(await first.call('/monitor/online/inquire', { size: 20, current: 1, params: { userName: 'two.places' } }, admin)).records[0];
    expectOk(await first.call('/monitor/online/revoke', { sessionId: session.sessionId }, admin));
    expect(await second.call('GET /sys/menu/authority', null, token)).toMatchObject({ code: 401 });
    expect(await first.call('GET /sys/menu/authority', null, token)).toMatchObject({ code: 401 });
    // Both instances append to the same chains at the same time: the locked head serialises them.
    // (Two SQLite connections in one process would wait for each other synchronously, so there
    // the calls alternate; separate processes on one SQLite file are serialised by SQLite itself.)
    const before = expectOk(await first.call('/monitor/operation/integrity', null, admin)).headId;
    const create = (i: number) => (i % 2 === 0 ? first : second).call('/sys/role/creation', { name: `并发角色${i}`, remark: '', state: 1 }, admin);
    const indexes = Array.from({ length: 30 }, (_, i) => i);
    if (dialect === 'postgres') await Promise.all(indexes.map(create));
    else for (const i of indexes) await create(i);
    const after = expectOk(await second.call('/monitor/operation/integrity', null, admin));
    expect(after).toMatchObject({ ok: true, headId: before + 30 });
    expect(expectOk(await second.call('/monitor/login/integrity', null, admin)).ok).toBe(true);
  }, 30_000);
});
