import crypto from 'node:crypto';
import { describeOnEachDatabase, type TestApp } from './support/harness';
import type { EndpointKey } from '../../src/contract';
import { deviceRow, expectOk, rowCount, signedInOperator, expectRefused } from './support/sys-fixtures';
import { deviceWithPresence } from '../../src/server/routes/hotel/device/presence';
import { SYSTEM_SCOPE } from '../../src/server/lib/data-scope';

const MINUTE = 60_000;
const STAFF_ENDPOINTS: EndpointKey[] = ['/hotel/device/inquire', '/hotel/device/creation', '/hotel/device/edit', '/hotel/device/key/reset'];

const device = (sn: string, overrides: Record<string, unknown> = {}) => ({
  name: `设备 ${sn}`,
  sn,
  type: 'lock',

  state: 1,
  remark: '',
  ...overrides,
});

/** A device's own call: no staff token, its key in the x-device-key header. */
async function heartbeat(app: TestApp, sn: string, key?: string) {
  const response = await app.app.inject({
    method: 'POST',
    url: '/api/hotel/device/heartbeat',
    headers: key === undefined ? {} : { 'x-device-key': key },
    payload: { sn },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ code: number; msg: string; data: { serverTime: number } | null }>();
}

describeOnEachDatabase('hotel/device', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });
  const create = async (body: Record<string, unknown>) => expectOk(await ctx().call('/hotel/device/creation', body, admin));
  const stored = async (id: number) => (await deviceWithPresence(ctx().database.db, SYSTEM_SCOPE, id))!;

  describe('creation', () => {
    it('saves a device and answers its key once, keeping only the key hash', async () => {
      const response = await ctx().app.inject({
        method: 'POST',
        url: '/api/hotel/device/creation',
        headers: { authorization: `Bearer ${admin}` },
        payload: device('LOCK-0001'),
      });
      const answer = response.json();
      expect(answer).toMatchObject({
        code: 200,
        msg: '保存成功',
        data: { device: { sn: 'LOCK-0001', type: 'lock', state: 1, online: 0, lastSeenAt: null, version: 0 } },
      });
      const key: string = answer.data.deviceKey;
      expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url
      const row = await stored(answer.data.device.id);
      expect(row.keyHash).toBe(crypto.createHash('sha256').update(key).digest('hex'));
      expect(response.body).not.toContain(row.keyHash);
      expect(answer.data.device).not.toHaveProperty('keyHash');

      const listed = await ctx().app.inject({
        method: 'POST',
        url: '/api/hotel/device/inquire',
        headers: { authorization: `Bearer ${admin}` },
        payload: { size: 20, current: 1 },
      });
      expect(listed.body).not.toContain(key);
      expect(listed.body).not.toContain(row.keyHash);
    });

    it.each([
      ['a malformed serial number', { sn: 'a b' }, '序列号格式不正确：只能包含字母、数字、_ 和 -，长度 4-64'],
      ['a type outside the device_type dictionary', { type: 'toaster' }, '设备类型不正确：请从数据字典的设备类型中选择'],
      ['an empty name', { name: '' }, '设备名称不能为空'],
      ['a state other than 0 or 1', { state: 2 }, '状态不能大于 1'],
      ['a field devices may not set', { online: 1 }, '不支持的字段：online'],
    ])('refuses %s with a 400, writing nothing', async (_case, overrides, msg) => {
      const before = await rowCount(ctx(), 'hotelDevice');
      expectRefused(await ctx().call('/hotel/device/creation', device('BAD-0001', overrides), admin), msg);
      expect(await rowCount(ctx(), 'hotelDevice')).toBe(before);
    });

    it('refuses a duplicate serial number with a 409', async () => {
      await create(device('DUP-0001'));
      const before = await rowCount(ctx(), 'hotelDevice');
      expect(await ctx().call('/hotel/device/creation', device('DUP-0001', { name: '另一台' }), admin)).toEqual({ code: 409, msg: '序列号已存在', data: null });
      expect(await rowCount(ctx(), 'hotelDevice')).toBe(before);
    });
  });

  describe('inquire', () => {
    it('filters by contained name and sn, type, state and online', async () => {
      const ac = await create(device('FLT-AC-01', { name: '筛选空调', type: 'aircon' }));
      await create(device('FLT-GW-01', { name: '筛选网关', type: 'gateway', state: 0 }));
      const sns = async (params: Record<string, unknown>) => expectOk(await ctx().call('/hotel/device/inquire', { size: 100, current: 1, params }, admin)).records.map((d) => d.sn);
      expect(await sns({ name: '筛选' })).toEqual(['FLT-AC-01', 'FLT-GW-01']);
      expect(await sns({ sn: 'flt-gw' })).toEqual(['FLT-GW-01']);
      expect(await sns({ sn: '_' })).toEqual([]);
      expect(await sns({ type: 'aircon' })).toEqual(['FLT-AC-01']);
      expect(await sns({ name: '筛选', state: 0 })).toEqual(['FLT-GW-01']);
      await heartbeat(ctx(), 'FLT-AC-01', ac.deviceKey);
      expect(await sns({ name: '筛选', online: 1 })).toEqual(['FLT-AC-01']);
      expect(await sns({ name: '筛选', online: 0 })).toEqual(['FLT-GW-01']);
      const page = expectOk(await ctx().call('/hotel/device/inquire', { size: 1, current: 2 }, admin));
      expect(page.records).toHaveLength(1);
      expect(page.total).toBe(await rowCount(ctx(), 'hotelDevice'));
    });

    it('reads the page on the list reads and its locations and last commands on the main connection', async () => {
      const { db } = ctx().database;
      const now = Date.now();
      const building = await db
        .insertInto('hotelLocation')
        .values({ parentId: 0, kind: 'building', name: '分流楼', sort: 1, createdAt: now, updatedAt: now, version: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const [placed] = await db
        .insertInto('hotelDevice')
        .values(deviceRow('SPLIT-0001', { locationId: building.id }))
        .returning('id')
        .execute();
      await db.insertInto('hotelDeviceCommand').values({ deviceId: placed.id, command: 'reboot', status: 'acked', sentAt: now, ackedAt: now, requestedBy: 1 }).execute();
      const onReads = jest.spyOn(ctx().app.reads.getExecutor(), 'executeQuery');
      const onMain = jest.spyOn(db.getExecutor(), 'executeQuery');
      try {
        const page = expectOk(await ctx().call('/hotel/device/inquire', { size: 20, current: 1, params: { sn: 'SPLIT-0001' } }, admin));
        expect(page.records).toMatchObject([{ sn: 'SPLIT-0001', locationPath: '分流楼', lastCommand: { command: 'reboot', status: 'acked' } }]);
        const tablesOf = (spy: typeof onReads) => spy.mock.calls.map(([query]) => query.sql).filter((text) => /hotel_(location|device_command)\b/.test(text));
        expect(tablesOf(onReads)).toEqual([]);
        expect(tablesOf(onMain)).toEqual([expect.stringMatching(/hotel_location/), expect.stringMatching(/hotel_device_command/)]);
      } finally {
        onReads.mockRestore();
        onMain.mockRestore();
      }
    });
  });

  describe('edit', () => {
    it('saves changes with the version, and disabling takes the device offline', async () => {
      const { device: created, deviceKey } = await create(device('EDIT-0001'));
      await heartbeat(ctx(), 'EDIT-0001', deviceKey);
      const answer = await ctx().call('/hotel/device/edit', { ...device('EDIT-0002', { name: '改名' }), id: created.id, version: 0 }, admin);
      expect(answer).toMatchObject({ code: 200, msg: '保存成功', data: { sn: 'EDIT-0002', name: '改名', online: 1, version: 1 } });
      const disabled = expectOk(await ctx().call('/hotel/device/edit', { ...device('EDIT-0002', { state: 0 }), id: created.id, version: 1 }, admin));
      expect(disabled).toMatchObject({ state: 0, online: 0, version: 2 });
    });

    it('refuses a stale version, an unknown id, a duplicate sn and invalid fields, changing nothing', async () => {
      const { device: target } = await create(device('EDT-T-01'));
      await create(device('EDT-T-02'));
      const edit = (overrides: Record<string, unknown>) => ctx().call('/hotel/device/edit', { ...device('EDT-T-01'), id: target.id, version: 0, ...overrides }, admin);
      expect(await edit({ version: 3 })).toEqual({ code: 409, msg: '数据已被他人修改，请刷新后重试', data: null });
      expect(await edit({ id: 999_999 })).toEqual({ code: 404, msg: '设备不存在', data: null });
      expect(await edit({ sn: 'EDT-T-02' })).toEqual({ code: 409, msg: '序列号已存在', data: null });
      expect(await edit({ type: 'toaster' })).toMatchObject({ code: 400 });
      expect(await stored(target.id)).toMatchObject({ sn: 'EDT-T-01', type: 'lock', version: 0 });
    });
  });

  describe('heartbeat and key reset', () => {
    it('marks a device online with a good key and answers the server time', async () => {
      const { device: created, deviceKey } = await create(device('HB-0001'));
      const before = Date.now();
      const answer = await heartbeat(ctx(), 'HB-0001', deviceKey);
      expect(answer.code).toBe(200);
      expect(answer.data!.serverTime).toBeGreaterThanOrEqual(before);
      const row = await stored(created.id);
      expect(row).toMatchObject({ online: 1, lastSeenAt: answer.data!.serverTime, version: 0 });
    });

    it('refuses a wrong key, an unknown sn and a missing key alike, changing nothing', async () => {
      const { device: created, deviceKey } = await create(device('HB-0002'));
      const refused = { code: 401, msg: '设备认证失败', data: null };
      expect(await heartbeat(ctx(), 'HB-0002', `${deviceKey.slice(0, -1)}${deviceKey.endsWith('A') ? 'B' : 'A'}`)).toEqual(refused);
      expect(await heartbeat(ctx(), 'HB-0002', '')).toEqual(refused);
      expect(await heartbeat(ctx(), 'HB-0002')).toEqual(refused);
      expect(await heartbeat(ctx(), 'NO-SUCH-SN', deviceKey)).toEqual(refused);
      // A staff token is not a device key.
      const withStaffToken = await ctx().app.inject({
        method: 'POST',
        url: '/api/hotel/device/heartbeat',
        headers: { authorization: `Bearer ${admin}` },
        payload: { sn: 'HB-0002' },
      });
      expect(withStaffToken.json()).toEqual(refused);
      expect(await stored(created.id)).toMatchObject({ online: 0, lastSeenAt: null });
    });

    it('refuses a disabled device with a 403 even with its key', async () => {
      const { device: created, deviceKey } = await create(device('HB-0003', { state: 0 }));
      expect(await heartbeat(ctx(), 'HB-0003', deviceKey)).toEqual({ code: 403, msg: '设备已停用，请联系管理员', data: null });
      expect(await stored(created.id)).toMatchObject({ online: 0, lastSeenAt: null });
    });

    it('resets the key: the old one stops working, the new one works', async () => {
      const { device: created, deviceKey: oldKey } = await create(device('HB-0004'));
      const reset = await ctx().call('/hotel/device/key/reset', { id: created.id }, admin);
      expect(reset).toMatchObject({ code: 200, data: { device: { id: created.id, version: 0 } } });
      const newKey = reset.data.deviceKey;
      expect(newKey).not.toBe(oldKey);
      expect(await heartbeat(ctx(), 'HB-0004', oldKey)).toMatchObject({ code: 401 });
      expect(await heartbeat(ctx(), 'HB-0004', newKey)).toMatchObject({ code: 200 });
      expect(await ctx().call('/hotel/device/key/reset', { id: 999_999 }, admin)).toEqual({ code: 404, msg: '设备不存在', data: null });
    });
  });

  describe('offline sweep', () => {
    it('marks devices whose last heartbeat is older than the configured minutes offline', async () => {
      const stale = await create(device('SWP-STALE'));
      const fresh = await create(device('SWP-FRESH'));
      await heartbeat(ctx(), 'SWP-STALE', stale.deviceKey);
      await heartbeat(ctx(), 'SWP-FRESH', fresh.deviceKey);
      await ctx()
        .database.db.updateTable('hotelDevicePresence')
        .set({ lastSeenAt: Date.now() - 6 * MINUTE })
        .where('id', '=', stale.device.id)
        .execute();

      const sweep = expectOk(
        await ctx().call('/sys/schedule/creation', { name: '离线检测测试', cron: '* * * * *', task: 'device.offlineSweep', params: { minutes: 5 }, state: 0, remark: '' }, admin),
      );
      const run = expectOk(await ctx().call('/sys/schedule/run', { id: sweep.id }, admin));
      // Earlier tests' devices beat within the last minutes, so only the stale one goes offline.
      expect(run).toMatchObject({ outcome: 'success', message: '已将 1 台超过 5 分钟没有心跳的设备标记为离线' });
      expect(await stored(stale.device.id)).toMatchObject({ online: 0 });
      expect(await stored(fresh.device.id)).toMatchObject({ online: 1 });

      // Its next heartbeat brings it back.
      await heartbeat(ctx(), 'SWP-STALE', stale.deviceKey);
      expect(await stored(stale.device.id)).toMatchObject({ online: 1 });
    });
  });

  describe('access', () => {
    it('refuses the staff endpoints to a role without the device resources', async () => {
      const { token } = await signedInOperator(ctx(), admin, 'no_devices', []);
      const { device: target } = await create(device('ACL-0001'));
      const bodies: Record<string, unknown> = {
        '/hotel/device/inquire': { size: 20, current: 1 },
        '/hotel/device/creation': device('ACL-0002'),
        '/hotel/device/edit': { ...device('ACL-0001', { name: '越权' }), id: target.id, version: 0 },
        '/hotel/device/key/reset': { id: target.id },
      };
      const before = await stored(target.id);
      for (const key of STAFF_ENDPOINTS) {
        expect([key, await ctx().call(key, bodies[key] as never, token)]).toEqual([key, { code: 403, msg: '没有权限执行该操作', data: null }]);
      }
      expect(await stored(target.id)).toEqual(before);
      expect(await ctx().database.db.selectFrom('hotelDevice').select('id').where('sn', '=', 'ACL-0002').executeTakeFirst()).toBeUndefined();
    });
  });
});
