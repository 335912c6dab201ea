/**
 * Issue 9, the operation log: one record per state-changing or refused call with the right fields,
 * secrets never stored, edits with their before/after, the hash chain's tamper detection, retention,
 * capped counts, exports, and a failing audit write that leaves the answer alone.
 */
import ExcelJS from 'exceljs';
import { describeOnEachDatabase, ADMIN_PASSWORD, type TestApp } from './support/harness';
import { expectOk, menuGrants, USER_PASSWORD, signedInOperator } from './support/sys-fixtures';
import { appendToChain, type OperationEntry } from '../../src/server/lib/audit-chain';
import type { Row } from '../../src/server/db/schema';

const DAY = 86_400_000;
const SECRETS = {
  userPassword: 'Secret-Pass-7781',
  resetPassword: 'Reset-Pass-99213',
  ownNewPassword: 'Own-New-Pass-55102',
  appSecret: 'sk_live_audit_9f8e7d6c5b4a',
  wrongPassword: 'Wrong-Pass-00417',
};

/** An operation record as the hook would write it, for filling a log directly. */
const entry = (overrides: Partial<OperationEntry> = {}): OperationEntry => ({
  operatorType: 'user',
  operatorId: 1,
  operatorName: 'admin',
  module: '用户管理',
  action: '编辑用户',
  path: '/sys/user/edit',
  targetType: 'user',
  targetId: '1',
  targetLabel: 'admin',
  outcome: 'success',
  code: 200,
  msg: '修改成功',
  ip: '127.0.0.1',
  durationMs: 3,
  params: '{}',
  changes: '[]',
  actorOrgId: null,
  targetOrgId: null,
  ...overrides,
});

async function headId(app: TestApp): Promise<number> {
  const head = await app.database.db.selectFrom('sysAuditChain').select('headId').where('chain', '=', 'operation').executeTakeFirstOrThrow();
  return head.headId;
}

const recordsAfter = (app: TestApp, id: number) => app.database.db.selectFrom('sysOperationLog').selectAll().where('id', '>', id).orderBy('id').execute();

describeOnEachDatabase(
  'monitor/operation',
  (ctx) => {
    let admin: string;
    beforeAll(async () => {
      admin = await ctx().login();
    });

    /** Runs one call and answers the one record it left (failing when it left none or several). */
    async function onlyRecordOf(call: () => Promise<unknown>): Promise<Row<'sysOperationLog'>> {
      const before = await headId(ctx());
      await call();
      const rows = await recordsAfter(ctx(), before);
      expect(rows.map((r) => `${r.path} ${r.code}`)).toHaveLength(1);
      return rows[0];
    }

    describe('what is recorded', () => {
      it('records each kind of write once, with operator, module, action, target and outcome', async () => {
        const app = ctx();
        const user = expectOk(await app.call('/sys/user/creation', { userName: 'audit.user', nickName: '审计', password: SECRETS.userPassword, state: 1, roleId: null }, admin));
        const created = (await recordsAfter(app, (await headId(app)) - 1))[0];
        expect(created).toMatchObject({
          operatorType: 'user',
          operatorId: 1,
          operatorName: 'admin',
          module: '用户管理',
          action: '新增用户',
          path: '/sys/user/creation',
          targetType: 'user',
          targetId: String(user.id),
          targetLabel: 'audit.user',
          outcome: 'success',
          code: 200,
          msg: '账号添加成功：audit.user',
          ip: '127.0.0.1',
        });
        expect(JSON.parse(created.params)).toEqual({ userName: 'audit.user', nickName: '审计', password: '******', state: 1, roleId: null, orgId: null });

        const role = expectOk(await app.call('/sys/role/creation', { name: '审计角色', remark: '', state: 1 }, admin));
        const device = expectOk(await app.call('/hotel/device/creation', { name: '门锁 1', sn: 'AUDIT-0001', type: 'lock', state: 1, remark: '' }, admin));
        const setting = expectOk(
          await app.call(
            '/hotel/advanced/creation',
            { name: '审计对接', endpointUrl: 'https://open.example.com/api', appKey: 'k1', appSecret: SECRETS.appSecret, state: 1, remark: '' },
            admin,
          ),
        );
        const dict = expectOk(await app.call('/sys/dict/creation', { code: 'audit_kind', label: '甲', value: 'a', sort: 1, state: 1, remark: '' }, admin));
        const fieldResource = await app.database.db.selectFrom('sysResource').select('id').where('type', '=', 'field_state').limit(1).executeTakeFirstOrThrow();
        const menu = expectOk(await app.call('/sys/menu/creation', { pid: null, name: '审计菜单', path: '', element: '', icon: '', sort: 0, state: 1, isAuth: 1 }, admin));
        const resource = expectOk(await app.call('/sys/resource/creation', { menuId: menu.id, name: '导出', type: 'button_export', path: '', remark: '' }, admin));
        const schedule = expectOk(
          await app.call('/sys/schedule/creation', { name: '审计任务', cron: '*/5 * * * *', task: 'device.offlineSweep', params: { minutes: 5 }, state: 0, remark: '' }, admin),
        );

        const cases: Array<[string, () => Promise<unknown>, Partial<Row<'sysOperationLog'>>]> = [
          [
            'user edit',
            () => app.call('/sys/user/edit', { id: user.id, nickName: '审计员', state: 1, roleId: null, version: 0 }, admin),
            { module: '用户管理', action: '编辑用户', targetType: 'user', targetId: String(user.id), targetLabel: 'audit.user' },
          ],
          [
            'password reset',
            () => app.call('/sys/user/password/reset', { id: user.id, password: SECRETS.resetPassword }, admin),
            { action: '重置密码', targetType: 'user', targetId: String(user.id) },
          ],
          [
            'role edit',
            () => app.call('/sys/role/edit', { id: role.id, name: '审计角色二', remark: '', state: 1, version: 0 }, admin),
            { module: '角色管理', action: '编辑角色', targetType: 'role', targetLabel: '审计角色二' },
          ],
          [
            'grant',
            () => app.call('/sys/role/auth', { roleId: role.id, grant: [{ type: 'menu', resource: menu.id }], revoke: [] }, admin),
            { action: '角色授权', targetType: 'role', targetId: String(role.id) },
          ],
          ['bind', () => app.call('/sys/role/bind/user', { userId: user.id, roleId: role.id }, admin), { action: '绑定用户', targetType: 'user', targetId: String(user.id) }],
          ['unbind', () => app.call('/sys/role/unbind/user', { userId: user.id, roleId: role.id }, admin), { action: '解绑用户', targetType: 'user', targetId: String(user.id) }],
          [
            'menu edit',
            () => app.call('/sys/menu/edit', { id: menu.id, pid: null, name: '审计菜单二', path: '', element: '', icon: '', sort: 0, state: 1, isAuth: 1, version: 0 }, admin),
            { module: '菜单管理', action: '编辑菜单', targetType: 'menu' },
          ],
          [
            'resource edit',
            () => app.call('/sys/resource/edit', { id: resource.id, name: '导出二', type: 'button_export', path: '', remark: '', version: 0 }, admin),
            { action: '编辑资源', targetType: 'resource', targetLabel: '导出二' },
          ],
          [
            'dict edit',
            () => app.call('/sys/dict/edit', { id: dict.id, code: 'audit_kind', label: '乙', value: 'a', sort: 1, state: 1, remark: '', version: 0 }, admin),
            { module: '数据字典', action: '编辑字典', targetType: 'dict', targetLabel: 'audit_kind:乙' },
          ],
          [
            'dict bind',
            () => app.call('/sys/dict/bind', { resourceId: fieldResource.id, dictId: dict.id }, admin),
            { action: '绑定资源', targetType: 'dict', targetId: String(dict.id) },
          ],
          ['dict unbind', () => app.call('/sys/dict/unbind', { resourceId: fieldResource.id, dictId: dict.id }, admin), { action: '解绑资源', targetType: 'dict' }],
          [
            'schedule edit',
            () =>
              app.call(
                '/sys/schedule/edit',
                { id: schedule.id, name: '审计任务', cron: '*/10 * * * *', task: 'device.offlineSweep', params: { minutes: 5 }, state: 0, remark: '', version: 0 },
                admin,
              ),
            { module: '定时任务', action: '编辑任务', targetType: 'schedule' },
          ],
          [
            'run now',
            () => app.call('/sys/schedule/run', { id: schedule.id }, admin),
            { action: '立即执行', targetType: 'schedule', targetId: String(schedule.id), targetLabel: '审计任务' },
          ],
          [
            'device edit',
            () => app.call('/hotel/device/edit', { id: device.device.id, name: '门锁 1', sn: 'AUDIT-0001', type: 'lock', state: 1, remark: '', version: 0 }, admin),
            { module: '设备管理', action: '编辑设备', targetType: 'device', targetLabel: '门锁 1（AUDIT-0001）' },
          ],
          [
            'key reset',
            () => app.call('/hotel/device/key/reset', { id: device.device.id }, admin),
            { action: '重置设备密钥', targetType: 'device', targetId: String(device.device.id) },
          ],
          [
            'advanced edit',
            () =>
              app.call(
                '/hotel/advanced/edit',
                { id: setting.id, name: '审计对接', endpointUrl: 'https://open.example.com/v2', appKey: 'k1', appSecret: '', state: 1, remark: '', version: 0 },
                admin,
              ),
            { module: '高级设置', action: '编辑配置', targetType: 'advanced' },
          ],
          ['initialisation', () => app.call('/hotel/advanced/jd/edit', { id: setting.id }, admin), { action: '初始化', targetType: 'advanced', targetId: String(setting.id) }],
          [
            'export',
            () => app.app.inject({ method: 'POST', url: '/api/monitor/operation/export', headers: { authorization: `Bearer ${admin}` }, payload: {} }),
            { module: '操作日志', action: '导出操作日志', targetType: '', outcome: 'success', code: 200 },
          ],
        ];
        for (const [what, call, expected] of cases) {
          const record = await onlyRecordOf(call);
          expect({ what, ...record }).toMatchObject({ what, operatorName: 'admin', ...expected });
        }
      });

      it('records an edit field by field, with the titles of the contract', async () => {
        const app = ctx();
        const user = expectOk(await app.call('/sys/user/creation', { userName: 'diff.user', nickName: '旧昵称', password: USER_PASSWORD, state: 1, roleId: null }, admin));
        const record = await onlyRecordOf(() => app.call('/sys/user/edit', { id: user.id, nickName: '新昵称', state: 0, roleId: null, version: 0 }, admin));
        expect(JSON.parse(record.changes)).toEqual([
          { field: 'nickName', title: '昵称', before: '旧昵称', after: '新昵称' },
          { field: 'state', title: '状态', before: 1, after: 0 },
        ]);
        const detail = expectOk(await app.call('/monitor/operation/detail', { id: record.id }, admin));
        expect(detail).toMatchObject({
          id: record.id,
          action: '编辑用户',
          params: { id: user.id, nickName: '新昵称' },
          changes: [{ field: 'nickName' }, { field: 'state' }],
          hash: record.hash,
        });
      });

      it('records own password change, sign-out and session-level calls under 个人中心', async () => {
        const app = ctx();
        const operator = await signedInOperator(app, admin, 'self.service', []);
        const change = await onlyRecordOf(() => app.call('/sys/user/password', { oldPassword: USER_PASSWORD, newPassword: SECRETS.ownNewPassword }, operator.token));
        expect(change).toMatchObject({
          module: '个人中心',
          action: '修改密码',
          targetType: 'user',
          targetId: String(operator.user.id),
          operatorName: 'self.service',
          outcome: 'success',
        });
        const logout = await onlyRecordOf(() => app.call('/sys/user/logout', {}, operator.token));
        expect(logout).toMatchObject({ module: '个人中心', action: '退出登录', targetLabel: 'self.service' });
      });

      it('records refused calls (400, 401, 403, 409) as refused, and not successful reads', async () => {
        const app = ctx();
        const deviceOnly = await signedInOperator(app, admin, 'device.only', await menuGrants(app, '/hotel/device'));
        const invalid = await onlyRecordOf(() => app.call('/sys/user/creation', { userName: 'x', nickName: 'n', password: SECRETS.userPassword, state: 1, roleId: null }, admin));
        expect(invalid).toMatchObject({ outcome: 'refused', code: 400, action: '新增用户', operatorName: 'admin' });
        const forbidden = await onlyRecordOf(() => app.call('/sys/user/inquire', { size: 20, current: 1 }, deviceOnly.token));
        expect(forbidden).toMatchObject({ outcome: 'refused', code: 403, module: '用户管理', action: '查询用户', operatorName: 'device.only', params: 'null' });
        const anonymous = await onlyRecordOf(() => app.call('/sys/role/creation', { name: '匿名', remark: '', state: 1 }, 'no-such-token'));
        expect(anonymous).toMatchObject({ outcome: 'refused', code: 401, operatorType: 'anonymous', operatorId: null, operatorName: '' });
        const taken = await onlyRecordOf(() => app.call('/sys/role/creation', { name: '审计角色二', remark: '', state: 1 }, admin));
        expect(taken).toMatchObject({ outcome: 'refused', code: 409 });

        const before = await headId(app);
        expectOk(await app.call('/sys/user/inquire', { size: 20, current: 1 }, admin));
        expectOk(await app.call('/monitor/operation/inquire', { size: 20, current: 1 }, admin));
        expectOk(await app.call('GET /sys/menu/authority', null, admin));
        expect(await headId(app)).toBe(before);
      });

      it('records a route added later with no code of its own, and skips the device heartbeat', async () => {
        const app = ctx();
        const record = await onlyRecordOf(() => app.app.inject({ method: 'POST', url: '/api/extra/ping', headers: { authorization: `Bearer ${admin}` }, payload: { note: 'hi' } }));
        // No contract entry: a write, its body unknown to any schema, so not stored.
        expect(record).toMatchObject({ module: '个人中心', action: '/extra/ping', path: '/extra/ping', outcome: 'success', params: 'null' });
        const before = await headId(app);
        await app.app.inject({ method: 'POST', url: '/api/hotel/device/heartbeat', headers: { 'x-device-key': 'nope' }, payload: { sn: 'NO-SUCH' } });
        expect(await headId(app)).toBe(before);
      });

      it('names module and action as the database does now: a renamed menu shows in new records', async () => {
        const app = ctx();
        await app.database.db.updateTable('sysMenu').set({ name: '账号管理' }).where('path', '=', '/sys/user').execute();
        // The names are cached for a few seconds; a fresh lookup is what a later call sees.
        (app.app.audit as unknown as { names: Map<string, unknown> }).names.clear();
        const record = await onlyRecordOf(() => app.call('/sys/user/detail', { id: 999_999 }, admin));
        expect(record).toMatchObject({ module: '账号管理', action: '用户详情', outcome: 'refused', code: 404 });
        await app.database.db.updateTable('sysMenu').set({ name: '用户管理' }).where('path', '=', '/sys/user').execute();
        (app.app.audit as unknown as { names: Map<string, unknown> }).names.clear();
      });

      it('never stores a secret: passwords, app secrets, device keys, tokens', async () => {
        const app = ctx();
        const user = await app.database.db.selectFrom('sysUser').select('id').where('userName', '=', 'audit.user').executeTakeFirstOrThrow();
        // Secrets in unknown fields, in refused calls and in a wrong sign-in.
        await app.call(
          '/sys/user/creation',
          { userName: 'leak.user', nickName: 'n', password: SECRETS.userPassword, state: 1, roleId: null, passwd: SECRETS.resetPassword },
          admin,
        );
        await app.call('/sys/user/password/reset', { id: user.id, password: { nested: SECRETS.appSecret } }, admin);
        await app.call('/sys/user/verify', { userName: 'audit.user', password: SECRETS.wrongPassword });
        const device = expectOk(await app.call('/hotel/device/creation', { name: '门锁 2', sn: 'AUDIT-0002', type: 'lock', state: 1, remark: '' }, admin));
        const reset = expectOk(await app.call('/hotel/device/key/reset', { id: device.device.id }, admin));
        const token = await app.login('self.service', SECRETS.ownNewPassword);

        const everything = JSON.stringify([
          await app.database.db.selectFrom('sysOperationLog').selectAll().execute(),
          await app.database.db.selectFrom('sysLoginLog').selectAll().execute(),
        ]);
        for (const secret of [...Object.values(SECRETS), ADMIN_PASSWORD, USER_PASSWORD, device.deviceKey, reset.deviceKey, token, admin]) {
          expect({ secret, found: everything.includes(secret) }).toEqual({ secret, found: false });
        }
        expect(everything).toContain('[未记录]');
      });
    });

    describe('the hash chain', () => {
      it('checks an untouched chain and finds a row edited in the database', async () => {
        const app = ctx();
        const db = app.database.db;
        const clean = expectOk(await app.call('/monitor/operation/integrity', null, admin));
        expect(clean).toMatchObject({ ok: true, anchorId: 0, firstBroken: null });
        expect(clean.checked).toBe(clean.headId);

        const victim = Math.floor(clean.headId / 2);
        const { msg } = await db.selectFrom('sysOperationLog').select('msg').where('id', '=', victim).executeTakeFirstOrThrow();
        await db.updateTable('sysOperationLog').set({ msg: '改过的' }).where('id', '=', victim).execute();
        const edited = await app.call('/monitor/operation/integrity', null, admin);
        expect(edited.data).toMatchObject({ ok: false, firstBroken: { id: victim, reason: expect.stringContaining('被修改') } });
        expect(edited.msg).toContain(`记录 ${victim}`);
        await db.updateTable('sysOperationLog').set({ msg }).where('id', '=', victim).execute();
        expect(expectOk(await app.call('/monitor/operation/integrity', null, admin)).ok).toBe(true);
      });

      it('stores text a database would alter (NUL, a lone surrogate) so that it still verifies', async () => {
        const app = ctx();
        const [id] = await appendToChain(app.database.db, 'operation', [entry({ msg: 'a\u0000b\ud800c', targetLabel: 'x'.repeat(99) + '\ud83d\ude00' })]);
        const stored = await app.database.db.selectFrom('sysOperationLog').select(['msg', 'targetLabel']).where('id', '=', id).executeTakeFirstOrThrow();
        expect(stored).toEqual({ msg: 'a\ufffdb\ufffdc', targetLabel: 'x'.repeat(99) + '\ufffd' });
        expect(expectOk(await app.call('/monitor/operation/integrity', null, admin)).ok).toBe(true);
      });

      it('finds a row deleted from the middle and from the end', async () => {
        const app = ctx();
        const db = app.database.db;
        const ids = await appendToChain(db, 'operation', [entry(), entry(), entry()]);
        const row = (id: number) => db.selectFrom('sysOperationLog').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

        const middle = await row(ids[1]);
        await db.deleteFrom('sysOperationLog').where('id', '=', middle.id).execute();
        expect(expectOk(await app.call('/monitor/operation/integrity', null, admin))).toMatchObject({
          ok: false,
          firstBroken: { id: middle.id, reason: expect.stringContaining('被删除') },
        });
        await db.insertInto('sysOperationLog').values(middle).execute();
        expect(expectOk(await app.call('/monitor/operation/integrity', null, admin)).ok).toBe(true);

        const tail = await row(ids[2]);
        await db.deleteFrom('sysOperationLog').where('id', '=', tail.id).execute();
        expect(expectOk(await app.call('/monitor/operation/integrity', null, admin))).toMatchObject({ ok: false, firstBroken: { id: tail.id } });
        await db.insertInto('sysOperationLog').values(tail).execute();
        expect(expectOk(await app.call('/monitor/operation/integrity', null, admin)).ok).toBe(true);
      });
    });

    describe('lists and exports', () => {
      it('filters by time, operator, module, action, outcome and target, newest first', async () => {
        const app = ctx();
        const all = expectOk(await app.call('/monitor/operation/inquire', { size: 100, current: 1 }, admin));
        expect(all.totalIsLowerBound).toBe(false);
        const order = all.records.map((r) => [r.at, r.id]);
        expect(order).toEqual([...order].sort((a, b) => b[0] - a[0] || b[1] - a[1]));

        const refused = expectOk(await app.call('/monitor/operation/inquire', { size: 100, current: 1, params: { outcome: 'refused' } }, admin));
        expect(refused.total).toBeGreaterThan(0);
        expect(refused.records.every((r) => r.outcome === 'refused')).toBe(true);
        const byOperator = expectOk(await app.call('/monitor/operation/inquire', { size: 100, current: 1, params: { operatorName: 'device.only' } }, admin));
        expect(byOperator.records.map((r) => r.operatorName)).toEqual(byOperator.records.map(() => 'device.only'));
        const edits = expectOk(await app.call('/monitor/operation/inquire', { size: 100, current: 1, params: { module: '用户管理', action: '编辑用户' } }, admin));
        expect(edits.total).toBeGreaterThan(0);
        expect(edits.records.every((r) => r.module === '用户管理' && r.action === '编辑用户')).toBe(true);
        const newest = all.records[0];
        const window = expectOk(await app.call('/monitor/operation/inquire', { size: 100, current: 1, params: { startAt: newest.at, endAt: newest.at } }, admin));
        expect(window.records.every((r) => r.at === newest.at)).toBe(true);
        expect(window.records.map((r) => r.id)).toContain(newest.id);

        const options = expectOk(await app.call('/monitor/operation/options', null, admin));
        expect(options.find((o) => o.module === '用户管理')?.actions).toEqual(expect.arrayContaining(['新增用户', '编辑用户']));
        expect(await app.call('/monitor/operation/inquire', { size: 20, current: 1, params: { outcome: 'maybe' } }, admin)).toMatchObject({ code: 400 });
      });

      it('counts a long list only up to the cap and answers the total as a lower bound', async () => {
        const app = ctx();
        await appendToChain(
          app.database.db,
          'operation',
          Array.from({ length: 10_050 }, (_, i) => entry({ operatorName: 'bulk', targetId: String(i) })),
        );
        const page = expectOk(await app.call('/monitor/operation/inquire', { size: 20, current: 1, params: { operatorName: 'bulk' } }, admin));
        expect(page).toMatchObject({ total: 10_000, totalIsLowerBound: true });
        expect(page.records[0]).toMatchObject({ targetId: '10049' });
        // Past the cap the pages go on, still a lower bound while a page is full...
        const beyond = expectOk(await app.call('/monitor/operation/inquire', { size: 20, current: 501, params: { operatorName: 'bulk' } }, admin));
        expect(beyond).toMatchObject({ total: 10_020, totalIsLowerBound: true });
        expect(beyond.records.map((r) => r.targetId)).toEqual(Array.from({ length: 20 }, (_, i) => String(49 - i)));
        // ...and the page where the list ends answers its exact total.
        const last = expectOk(await app.call('/monitor/operation/inquire', { size: 20, current: 503, params: { operatorName: 'bulk' } }, admin));
        expect(last).toMatchObject({ total: 10_050, totalIsLowerBound: false });
        expect(last.records.map((r) => r.targetId)).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
        // A page exactly at the end is exact too (one row more was read to know).
        const full = expectOk(await app.call('/monitor/operation/inquire', { size: 25, current: 402, params: { operatorName: 'bulk' } }, admin));
        expect(full).toMatchObject({ total: 10_050, totalIsLowerBound: false });
        expect(full.records).toHaveLength(25);
        expect(expectOk(await app.call('/monitor/operation/inquire', { size: 20, current: 504, params: { operatorName: 'bulk' } }, admin)).records).toEqual([]);
      });

      it('exports the filtered list as .xlsx, newest first, with labels and formulas neutralised', async () => {
        const app = ctx();
        await appendToChain(app.database.db, 'operation', [
          entry({ operatorName: 'exporter', targetLabel: '=HYPERLINK("http://x")', outcome: 'refused', code: 403 }),
          entry({ operatorName: 'exporter', targetLabel: '第二条' }),
        ]);
        const response = await app.app.inject({
          method: 'POST',
          url: '/api/monitor/operation/export',
          headers: { authorization: `Bearer ${admin}` },
          payload: { params: { operatorName: 'exporter' } },
        });
        expect(response.headers['content-type']).toContain('spreadsheetml');
        expect(response.headers['content-disposition']).toContain(encodeURIComponent('操作日志'));
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
        const sheet = book.getWorksheet('操作日志')!;
        expect(sheet.rowCount).toBe(3);
        expect(sheet.getRow(1).getCell(4).value).toBe('操作人');
        expect(sheet.getRow(2).getCell(9).value).toBe('第二条');
        expect(sheet.getRow(3).getCell(9).value).toBe('\'=HYPERLINK("http://x")');
        expect(sheet.getRow(3).getCell(10).value).toBe('拒绝');
        expect(sheet.getRow(2).getCell(3).value).toBe('用户');
        const newest = expectOk(await app.call('/monitor/operation/inquire', { size: 1, current: 1, params: { operatorName: 'exporter' } }, admin)).records[0];
        const shanghai = new Date(newest.at + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
        expect(sheet.getRow(2).getCell(2).value).toBe(shanghai);
      });
    });

    describe('a failing audit write', () => {
      it('is logged and leaves the answer alone', async () => {
        const app = ctx();
        const db = app.database.db;
        const logged: string[] = [];
        const original = app.app.log.error.bind(app.app.log);
        app.app.log.error = (obj: unknown, msg?: string) => {
          logged.push(String(msg ?? obj));
        };
        await db.schema.alterTable('sys_operation_log').renameTo('sys_operation_log_moved').execute();
        try {
          const answer = await app.call('/sys/role/creation', { name: '日志失败时', remark: '', state: 1 }, admin);
          expect(answer).toMatchObject({ code: 200, data: { name: '日志失败时' } });
        } finally {
          await db.schema.alterTable('sys_operation_log_moved').renameTo('sys_operation_log').execute();
          app.app.log.error = original;
        }
        expect(logged).toContain('operation log write failed');
        expect(expectOk(await app.call('/monitor/operation/integrity', null, admin)).ok).toBe(true);
      });
    });
  },
  {},
  {
    extend: (app) => {
      app.post('/api/extra/ping', { config: { access: 'session' } }, () => ({ code: 200, msg: '好', data: null }));
    },
  },
);

/** Retention needs old records first: times never go backwards along a chain. */
describeOnEachDatabase('monitor/operation retention', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    const longAgo = Date.now() - 200 * DAY;
    await appendToChain(ctx().database.db, 'operation', [entry({ msg: 'old-1' }), entry({ msg: 'old-2' })], longAgo);
    await appendToChain(
      ctx().database.db,
      'login',
      [{ event: 'signIn', outcome: 'success', userId: 1, userName: 'admin', ip: '', browser: '', os: '', userAgent: '', msg: 'old', orgId: null }],
      longAgo,
    );
    admin = await ctx().login();
    expectOk(await ctx().call('/sys/role/creation', { name: '新近的', remark: '', state: 1 }, admin));
  });

  describe('retention', () => {
    it('prunes only records older than the kept days, and the chain still verifies', async () => {
      const app = ctx();
      const db = app.database.db;
      const old = [1, 2];
      expect(await db.selectFrom('sysOperationLog').select('msg').where('id', 'in', old).orderBy('id').execute()).toEqual([{ msg: 'old-1' }, { msg: 'old-2' }]);
      const schedule = await db.selectFrom('sysSchedule').select(['id', 'params']).where('task', '=', 'monitor.pruneLogs').executeTakeFirstOrThrow();
      expect(JSON.parse(schedule.params)).toEqual({ days: 180 });
      const remaining = async () =>
        Number(
          (
            await db
              .selectFrom('sysOperationLog')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await remaining();
      const run = expectOk(await app.call('/sys/schedule/run', { id: schedule.id }, admin));
      expect(run).toMatchObject({ outcome: 'success' });
      // The run itself adds one record.
      const pruned = Number(/已删除 (\d+) 条操作日志/.exec(run.message)![1]);
      expect(pruned).toBe(2);
      expect(run.message).toContain('和 1 条登录日志');
      expect(expectOk(await app.call('/monitor/login/integrity', null, admin))).toMatchObject({ ok: true, anchorId: 1 });
      expect(await remaining()).toBe(before - pruned + 1);
      expect(
        await db
          .selectFrom('sysOperationLog')
          .select('id')
          .where('at', '<', Date.now() - 180 * DAY)
          .execute(),
      ).toEqual([]);
      const checked = expectOk(await app.call('/monitor/operation/integrity', null, admin));
      expect(checked).toMatchObject({ ok: true, anchorId: old[1] });

      // Deleting the oldest remaining record by hand is still found.
      const oldest = await db.selectFrom('sysOperationLog').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
      await db.deleteFrom('sysOperationLog').where('id', '=', oldest.id).execute();
      expect(expectOk(await app.call('/monitor/operation/integrity', null, admin))).toMatchObject({ ok: false, firstBroken: { id: oldest.id } });
    });

    it('keeps at least 180 days: a shorter retention is refused', async () => {
      const app = ctx();
      const schedule = await app.database.db.selectFrom('sysSchedule').selectAll().where('task', '=', 'monitor.pruneLogs').executeTakeFirstOrThrow();
      const answer = await app.call(
        '/sys/schedule/edit',
        { id: schedule.id, name: schedule.name, cron: schedule.cron, task: schedule.task, params: { days: 30 }, state: 1, remark: '', version: schedule.version },
        admin,
      );
      expect(answer).toMatchObject({ code: 400, msg: '任务参数不正确：保留天数不能小于 180' });
    });
  });
});
