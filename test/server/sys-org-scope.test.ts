/**
 * Issue 26: the organisation tree and data scope. A group with two regions (R1: hotels A and B; R2:
 * hotel C); staff in each hotel; callers of every scope kind. Every endpoint that declares a scoped
 * entity in the contract is probed with targets in A, B and C: an out-of-scope target answers 404
 * and changes nothing, lists and totals hold only in-scope rows. Escalation: no placing outside the
 * scope, no binding to a wider role, no widening one's own role.
 */
import { contract, type EndpointKey } from '../../src/contract';
import { PICKERS, type PickerKey } from '../../src/contract/pickers';
import type { DataScopeKind } from '../../src/contract/constants';
import { describeOnEachDatabase } from './support/harness';
import { USER_PASSWORD, createRole, expectOk, menuGrants } from './support/sys-fixtures';
import { download } from './support/files';

type Hotel = 'A' | 'B' | 'C';
const HOTELS: Hotel[] = ['A', 'B', 'C'];
const NOT_FOUND = { code: 404, msg: '用户不存在', data: null };
/** A batch naming one out-of-scope row: refused as that row not found, the row named in `errors`. */
const batchNotFound = (noun: string) => ({
  code: 404,
  msg: expect.stringMatching(new RegExp(`^1 项不能执行，未做任何更改（编号 \\d+：${noun}不存在）$`)),
  data: null,
  errors: [{ field: 'ids.0', msg: expect.stringMatching(new RegExp(`^编号 \\d+：${noun}不存在$`)) }],
});

describeOnEachDatabase('organisation tree and data scope', (ctx) => {
  let admin: string;
  let root: number;
  const units = {} as Record<'R1' | 'R2' | Hotel, number>;
  /** One staff user per hotel, the targets. */
  const staff = {} as Record<Hotel, { id: number; version: number; nickName: string; roleId: number | null; orgId: number | null }>;
  /** Callers by name: which hotels their scope covers, their token, their own user id. */
  const callers: Record<string, { sees: Hotel[]; token: string; userId: number; roleId: number }> = {};
  /** One device per hotel, the targets. */
  const devices = {} as Record<Hotel, { id: number; name: string; sn: string; type: string; locationId: number | null; state: number; remark: string; version: number }>;
  const alarms = {} as Record<Hotel, number>;
  const sessions = {} as Record<Hotel, number>;
  const places = {} as Record<Hotel, { building: number; floor: number }>;
  const settings = {} as Record<Hotel, { id: number; name: string; version: number }>;
  const messages = {} as Record<Hotel, number>;
  let testMessage: number;
  const addDevice = (token: string, sn: string, orgId: number | null) =>
    ctx().call('/hotel/device/creation', { name: `设备 ${sn}`, sn, type: 'lock', locationId: null, orgId, state: 1, remark: '' }, token);

  const unit = async (pid: number, name: string, kind: string, code: string) =>
    expectOk(await ctx().call('/sys/org/creation', { pid, name, kind, code, state: 1, sort: 0, remark: '' }, admin)).id;
  const addUser = async (token: string, userName: string, orgId: number | null, roleId: number | null = null) =>
    ctx().call('/sys/user/creation', { userName, nickName: `${userName} 昵称`, password: USER_PASSWORD, state: 1, roleId, orgId }, token);
  const userCount = async () =>
    Number(
      (
        await ctx()
          .database.db.selectFrom('sysUser')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    const app = ctx();
    admin = await app.login();
    const tree = expectOk(await app.call('GET /sys/org/tree', null, admin));
    root = tree.find((u) => u.pid === null)!.id;
    units.R1 = await unit(root, '华东区', 'region', 'R1');
    units.R2 = await unit(root, '华南区', 'region', 'R2');
    units.A = await unit(units.R1, '上海店', 'hotel', 'HA');
    units.B = await unit(units.R1, '杭州店', 'hotel', 'HB');
    units.C = await unit(units.R2, '广州店', 'hotel', 'HC');
    for (const hotel of HOTELS) {
      staff[hotel] = expectOk(await addUser(admin, `staff.${hotel.toLowerCase()}`, units[hotel]));
      // A live session of each staff member, for the online-users screen.
      const now = Date.now();
      sessions[hotel] = (
        await app.database.db
          .insertInto('sysSession')
          .values({ tokenHash: `scope-test-${hotel}`, userId: staff[hotel].id, createdAt: now, lastSeenAt: now, expiresAt: now + 3_600_000, revokedAt: null, ip: '10.0.0.1' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    }

    const grants = [
      ...(await menuGrants(app, '/sys/user')),
      ...(await menuGrants(app, '/sys/org')),
      ...(await menuGrants(app, '/sys/role')),
      ...(await menuGrants(app, '/hotel/device')),
      ...(await menuGrants(app, '/hotel/alarm')),
      ...(await menuGrants(app, '/hotel/location')),
      ...(await menuGrants(app, '/monitor/online')),
      ...(await menuGrants(app, '/monitor/operation')),
      ...(await menuGrants(app, '/monitor/login')),
      ...(await menuGrants(app, '/hotel/advanced')),
      ...(await menuGrants(app, '/monitor/message')),
      ...(await menuGrants(app, '/monitor/rule')),
      ...(await menuGrants(app, '/monitor/maintenance')),
    ];
    for (const hotel of HOTELS) {
      const building = expectOk(await app.call('/hotel/location/creation', { parentId: 0, kind: 'building', name: `${hotel}楼`, sort: 0, orgId: units[hotel] }, admin));
      const floor = expectOk(await app.call('/hotel/location/creation', { parentId: building.id, kind: 'floor', name: '1F', sort: 0 }, admin));
      places[hotel] = { building: building.id, floor: floor.id };
    }
    for (const hotel of HOTELS) {
      devices[hotel] = expectOk(await addDevice(admin, `SCOPE-${hotel}`, units[hotel])).device;
      const now = Date.now();
      alarms[hotel] = (
        await app.database.db
          .insertInto('hotelAlarm')
          .values({
            deviceId: devices[hotel].id,
            type: 'offline',
            severity: 'major',
            message: '设备离线',
            startedAt: now,
            lastAt: now,
            acknowledgedBy: null,
            acknowledgedAt: null,
            clearedBy: null,
            clearedAt: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    }
    const now = Date.now();
    const channel = await app.database.db
      .insertInto('notifyChannel')
      .values({ name: '值班群', type: 'webhook', config: '{}', state: 1, remark: '', createdAt: now, updatedAt: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const message = (alarmId: number | null, kind: string) =>
      app.database.db
        .insertInto('notifyMessage')
        .values({
          channelId: channel.id,
          alarmId,
          kind,
          title: kind,
          body: '',
          state: 'failed',
          nextAttemptAt: now,
          claimedBy: null,
          vendorStatus: null,
          createdAt: now,
          sentAt: null,
          digestId: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    for (const hotel of HOTELS) {
      settings[hotel] = expectOk(
        await app.call('/hotel/advanced/creation', { name: `对接 ${hotel}`, endpointUrl: '', appKey: '', appSecret: '', state: 1, remark: '', orgId: units[hotel] }, admin),
      );
      messages[hotel] = (await message(alarms[hotel], 'raise')).id;
    }
    // A test message is about no alarm: only scope all sees it.
    testMessage = (await message(null, 'test')).id;

    const caller = async (name: string, dataScope: DataScopeKind, orgId: number, sees: Hotel[], scopeOrgIds: number[] = []) => {
      const role = await createRole(app, admin, `角色-${name}`, grants);
      expectOk(await app.call('/sys/role/edit', { id: role.id, name: role.name, remark: '', state: 1, dataScope, scopeOrgIds, version: role.version }, admin));
      const user = expectOk(await addUser(admin, name, orgId, role.id));
      callers[name] = { sees, token: await app.login(name, USER_PASSWORD), userId: user.id, roleId: role.id };
    };
    await caller('group.all', 'all', root, ['A', 'B', 'C']);
    await caller('region.r1', 'orgAndBelow', units.R1, ['A', 'B']);
    await caller('hotel.a', 'org', units.A, ['A']);
    await caller('custom.ac', 'custom', units.B, ['A', 'C'], [units.A, units.C]);
    await caller('self.only', 'self', units.A, []);
  }, 120_000);

  it('starts with a root group and 默认酒店 holding every building and device; the administrator sits at the root', async () => {
    const tree = expectOk(await ctx().call('GET /sys/org/tree', null, admin));
    expect(tree.find((u) => u.id === root)).toMatchObject({ kind: 'group', pid: null });
    const hotel = tree.find((u) => u.name === '默认酒店')!;
    expect(hotel).toMatchObject({ kind: 'hotel', pid: root });
    const me = expectOk(await ctx().call('/sys/user/inquire', { size: 1, current: 1, params: { userName: 'admin' } }, admin)).records[0];
    expect(me).toMatchObject({ orgId: root });
  });

  it('answers each caller the units of their scope only', async () => {
    const names = async (caller: string) => expectOk(await ctx().call('GET /sys/org/tree', null, callers[caller].token)).map((u) => u.name);
    expect(await names('region.r1')).toEqual(expect.arrayContaining(['华东区', '上海店', '杭州店']));
    expect(await names('region.r1')).not.toEqual(expect.arrayContaining(['广州店']));
    expect((await names('region.r1')).length).toBe(3);
    expect(await names('hotel.a')).toEqual(['上海店']);
    expect((await names('custom.ac')).sort()).toEqual(['上海店', '广州店'].sort());
  });

  /** Every screen's pickers of one kind (contract/pickers.ts). */
  const pickersOf = (kind: string) => (Object.keys(PICKERS) as PickerKey[]).filter((key) => PICKERS[key] === kind);

  it.each(['group.all', 'region.r1', 'hotel.a', 'custom.ac', 'self.only'])('%s: every screen’s unit picker answers the units 组织树 answers', async (name) => {
    const { token } = callers[name];
    const tree = expectOk(await ctx().call('GET /sys/org/tree', null, token));
    for (const key of pickersOf('org')) expect({ key, units: expectOk(await ctx().call(key, null, token)) }).toEqual({ key, units: tree });
  });

  describe('every endpoint declaring the org entity', () => {
    it('is the tree itself, a unit write (the escalation cases below) or a screen’s unit picker', () => {
      const covered = new Set<string>(['GET /sys/org/tree', '/sys/org/creation', '/sys/org/edit', '/sys/org/removal', ...pickersOf('org')]);
      const declared = (Object.keys(contract) as EndpointKey[]).filter((key) => (contract[key] as { scope?: string }).scope === 'org');
      expect(declared.filter((key) => !covered.has(key))).toEqual([]);
    });
  });

  describe('every endpoint declaring the user entity, for every caller and target', () => {
    /** How each scoped user endpoint is probed on one target: the answer, and whether it wrote. */
    const probes: Partial<Record<EndpointKey, (token: string, target: Hotel) => Promise<{ code: number }>>> = {
      '/sys/user/detail': (token, target) => ctx().call('/sys/user/detail', { id: staff[target].id }, token),
      '/sys/user/edit': (token, target) => {
        const { id, nickName, roleId, version } = staff[target];
        return ctx().call('/sys/user/edit', { id, nickName: `${nickName}改`, state: 1, roleId, version }, token);
      },
      '/sys/user/password/reset': (token, target) => ctx().call('/sys/user/password/reset', { id: staff[target].id, password: 'Fresh-Harbour-Lamp-3' }, token),
      '/sys/user/batch/state': (token, target) => ctx().call('/sys/user/batch/state', { ids: [staff[target].id], state: 0 }, token),
      '/sys/role/bind/user': (token, target) => ctx().call('/sys/role/bind/user', { userId: staff[target].id, roleId: callers['self.only'].roleId }, token),
      '/sys/role/unbind/user': (token, target) => ctx().call('/sys/role/unbind/user', { userId: staff[target].id, roleId: callers['self.only'].roleId }, token),
      '/monitor/online/revoke/user': (token, target) => ctx().call('/monitor/online/revoke/user', { userId: staff[target].id }, token),
      '/monitor/online/revoke': (token, target) => ctx().call('/monitor/online/revoke', { sessionId: sessions[target] }, token),
    };
    const notFoundOf = (key: string) =>
      key === '/monitor/online/revoke' ? { code: 404, msg: '在线会话不存在', data: null } : key.includes('/batch/') ? batchNotFound('用户') : NOT_FOUND;
    /** Lists: the ids they answer, checked against the scope. */
    const lists: Partial<Record<EndpointKey, true>> = { '/sys/user/inquire': true, '/sys/role/user/inquire': true, '/sys/user/export': true, '/monitor/online/inquire': true };
    /** Placing: creation and import put rows into a unit (the escalation cases below). */
    const placing: Partial<Record<EndpointKey, true>> = { '/sys/user/creation': true, '/sys/user/import': true };

    it('covers every contract endpoint that declares the user entity', () => {
      const declared = (Object.keys(contract) as EndpointKey[]).filter((key) => (contract[key] as { scope?: string }).scope === 'user');
      expect(declared.filter((key) => !probes[key] && !lists[key] && !placing[key])).toEqual([]);
    });

    it.each(['region.r1', 'hotel.a', 'custom.ac', 'self.only'])('%s: out-of-scope targets answer 404 and nothing changes', async (name) => {
      const caller = callers[name];
      for (const target of HOTELS.filter((hotel) => !caller.sees.includes(hotel))) {
        for (const [key, probe] of Object.entries(probes)) {
          const before = await ctx().database.db.selectFrom('sysUser').selectAll().where('id', '=', staff[target].id).executeTakeFirstOrThrow();
          const answer = await probe(caller.token, target);
          expect({ key, target, answer }).toEqual({ key, target, answer: notFoundOf(key) });
          expect(await ctx().database.db.selectFrom('sysSession').select('revokedAt').where('id', '=', sessions[target]).executeTakeFirstOrThrow()).toEqual({ revokedAt: null });
          expect(await ctx().database.db.selectFrom('sysUser').selectAll().where('id', '=', staff[target].id).executeTakeFirstOrThrow()).toEqual(before);
        }
      }
    });

    it.each(['group.all', 'region.r1', 'hotel.a', 'custom.ac'])('%s: in-scope targets are found', async (name) => {
      const caller = callers[name];
      for (const target of caller.sees) {
        expect(expectOk(await ctx().call('/sys/user/detail', { id: staff[target].id }, caller.token)).id).toBe(staff[target].id);
      }
    });

    it.each(['group.all', 'region.r1', 'hotel.a', 'custom.ac', 'self.only'])('%s: the list and its total hold only in-scope users', async (name) => {
      const caller = callers[name];
      const page = expectOk(await ctx().call('/sys/user/inquire', { size: 100, current: 1 }, caller.token));
      const inScope = await ctx()
        .database.db.selectFrom('sysUser')
        .select(['id', 'orgId'])
        .execute()
        .then((rows) =>
          rows.filter((row) =>
            name === 'group.all'
              ? true
              : name === 'self.only'
                ? row.id === caller.userId
                : caller.sees.some((hotel) => row.orgId === units[hotel]) || (name === 'region.r1' && row.orgId === units.R1),
          ),
        );
      expect(page.records.map((r) => r.id).sort()).toEqual(inScope.map((r) => r.id).sort());
      expect(page.total).toBe(inScope.length);
      const online = expectOk(await ctx().call('/monitor/online/inquire', { size: 100, current: 1 }, caller.token));
      expect(online.records.every((r) => inScope.some((row) => row.id === r.userId))).toBe(true);
      for (const hotel of HOTELS) {
        const listed = online.records.some((r) => r.sessionId === sessions[hotel]);
        expect({ hotel, listed }).toEqual({ hotel, listed: inScope.some((row) => row.id === staff[hotel].id) });
      }
      const roleUsers = expectOk(await ctx().call('/sys/role/user/inquire', { size: 100, current: 1, params: { roleId: callers['self.only'].roleId, member: 0 } }, caller.token));
      expect(roleUsers.records.every((r) => inScope.some((row) => row.id === r.id))).toBe(true);
    });

    it('filters by a unit of the tree with its subtree', async () => {
      const page = expectOk(await ctx().call('/sys/user/inquire', { size: 100, current: 1, params: { orgId: units.R1 } }, admin));
      expect(page.records.map((r) => r.orgId).every((orgId) => [units.R1, units.A, units.B].includes(orgId!))).toBe(true);
      expect(page.records.map((r) => r.id)).toEqual(expect.arrayContaining([staff.A.id, staff.B.id]));
      expect(page.records.map((r) => r.id)).not.toContain(staff.C.id);
    });
  });

  describe('every endpoint declaring the device entity, for every caller and target', () => {
    const DEVICE_NOT_FOUND = { code: 404, msg: '设备不存在', data: null };
    const probes: Partial<Record<EndpointKey, (token: string, target: Hotel) => Promise<{ code: number }>>> = {
      '/hotel/device/edit': (token, target) => {
        const { id, name, sn, type, locationId, state, remark, version } = devices[target];
        return ctx().call('/hotel/device/edit', { id, name: `${name}改`, sn, type, locationId, state, remark, version }, token);
      },
      '/hotel/device/key/reset': (token, target) => ctx().call('/hotel/device/key/reset', { id: devices[target].id }, token),
      '/hotel/device/removal': (token, target) => ctx().call('/hotel/device/removal', { id: devices[target].id }, token),
      '/hotel/device/command/reboot': (token, target) => ctx().call('/hotel/device/command/reboot', { id: devices[target].id }, token),
      '/hotel/device/status': (token, target) => ctx().call('/hotel/device/status', { id: devices[target].id, size: 10, current: 1 }, token),
      '/hotel/alarm/acknowledge': (token, target) => ctx().call('/hotel/alarm/acknowledge', { ids: [alarms[target]] }, token),
      '/hotel/alarm/clear': (token, target) => ctx().call('/hotel/alarm/clear', { ids: [alarms[target]] }, token),
      '/hotel/device/batch/state': (token, target) => ctx().call('/hotel/device/batch/state', { ids: [devices[target].id], state: 0 }, token),
      '/hotel/alarm/batch/acknowledge': (token, target) => ctx().call('/hotel/alarm/batch/acknowledge', { ids: [alarms[target]] }, token),
    };
    const notFoundOf = (key: string) => {
      const noun = key.startsWith('/hotel/alarm/') ? '告警' : '设备';
      if (key.includes('/batch/')) return batchNotFound(noun);
      return noun === '告警' ? { code: 404, msg: '告警不存在', data: null } : DEVICE_NOT_FOUND;
    };
    const lists: Partial<Record<EndpointKey, true>> = { '/hotel/device/inquire': true, '/hotel/device/export': true, '/hotel/alarm/inquire': true, '/sys/panel/inquire': true };
    const placing: Partial<Record<EndpointKey, true>> = { '/hotel/device/creation': true, '/hotel/device/import': true };

    it('covers every contract endpoint that declares the device entity', () => {
      const declared = (Object.keys(contract) as EndpointKey[]).filter((key) => (contract[key] as { scope?: string }).scope === 'device');
      expect(declared.filter((key) => !probes[key] && !lists[key] && !placing[key])).toEqual([]);
    });

    it.each(['region.r1', 'hotel.a', 'custom.ac', 'self.only'])('%s: out-of-scope devices answer 404 and nothing changes', async (name) => {
      const caller = callers[name];
      for (const target of HOTELS.filter((hotel) => !caller.sees.includes(hotel))) {
        for (const [key, probe] of Object.entries(probes)) {
          const state = async () => ({
            device: await ctx().database.db.selectFrom('hotelDevice').selectAll().where('id', '=', devices[target].id).executeTakeFirstOrThrow(),
            alarm: await ctx().database.db.selectFrom('hotelAlarm').selectAll().where('id', '=', alarms[target]).executeTakeFirstOrThrow(),
          });
          const before = await state();
          expect({ key, target, answer: await probe(caller.token, target) }).toEqual({ key, target, answer: notFoundOf(key) });
          expect(await state()).toEqual(before);
        }
        expect(await ctx().database.db.selectFrom('hotelDeviceCommand').selectAll().execute()).toEqual([]);
      }
    });

    it.each(['group.all', 'region.r1', 'hotel.a', 'custom.ac', 'self.only'])('%s: the list, its total and the export hold only in-scope devices', async (name) => {
      const caller = callers[name];
      const page = expectOk(await ctx().call('/hotel/device/inquire', { size: 100, current: 1 }, caller.token));
      const rows = await ctx().database.db.selectFrom('hotelDevice').select(['id', 'sn', 'orgId', 'createdBy']).orderBy('id').execute();
      const visible = rows.filter((row) =>
        name === 'group.all'
          ? true
          : name === 'self.only'
            ? row.createdBy === caller.userId
            : caller.sees.some((hotel) => row.orgId === units[hotel]) || (name === 'region.r1' && row.orgId === units.R1),
      );
      expect(page.records.map((r) => r.id).sort((a, b) => a - b)).toEqual(visible.map((r) => r.id));
      expect(page.total).toBe(visible.length);
      const file = await download(ctx(), '/hotel/device/export', {}, caller.token);
      expect(
        file.rows
          .slice(1)
          .map((row) => row[1])
          .sort(),
      ).toEqual(page.records.map((r) => r.sn).sort());
      const searched = expectOk(await ctx().call('/hotel/device/inquire', { size: 100, current: 1, params: { name: '设备' } }, caller.token));
      expect(searched.records.every((r) => visible.some((row) => row.id === r.id))).toBe(true);
      const alarmPage = expectOk(await ctx().call('/hotel/alarm/inquire', { size: 100, current: 1 }, caller.token));
      const visibleAlarms = HOTELS.filter((hotel) => visible.some((row) => row.id === devices[hotel].id)).map((hotel) => alarms[hotel]);
      expect(alarmPage.records.map((r) => r.id).sort((a, b) => a - b)).toEqual(visibleAlarms.sort((a, b) => a - b));
      expect(alarmPage.total).toBe(visibleAlarms.length);
    });

    it('a scoped caller cannot create or move a device outside the scope; 仅本人 sees what they created', async () => {
      const hotelA = callers['hotel.a'].token;
      const count = async () => (await ctx().database.db.selectFrom('hotelDevice').select('id').execute()).length;
      const before = await count();
      expect(await addDevice(hotelA, 'OUT-B-01', units.B)).toEqual({ code: 404, msg: '所属酒店不存在', data: null });
      expect(await count()).toBe(before);
      const mine = expectOk(await addDevice(hotelA, 'IN-A-01', null)).device;
      expect(mine.orgId).toBe(units.A);
      const { id, name, sn, type, locationId, state, remark, version } = mine;
      expect(await ctx().call('/hotel/device/edit', { id, name, sn, type, locationId, orgId: units.C, state, remark, version }, hotelA)).toEqual({
        code: 404,
        msg: '所属酒店不存在',
        data: null,
      });
      expect((await ctx().database.db.selectFrom('hotelDevice').select('orgId').where('id', '=', id).executeTakeFirstOrThrow()).orgId).toBe(units.A);

      const self = callers['self.only'];
      const own = expectOk(await addDevice(self.token, 'SELF-01', null)).device;
      const page = expectOk(await ctx().call('/hotel/device/inquire', { size: 100, current: 1 }, self.token));
      expect(page.records.map((r) => r.id)).toEqual([own.id]);
    });
  });

  describe('every endpoint declaring the location entity, for every caller and target', () => {
    const NO_LOCATION = { code: 404, msg: '位置不存在', data: null };
    const NO_PARENT = { code: 404, msg: '上级位置不存在', data: null };
    const probes: Partial<Record<EndpointKey, { expect: unknown; call: (token: string, target: Hotel) => Promise<unknown> }>> = {
      '/hotel/location/edit': {
        expect: NO_LOCATION,
        call: (token, target) => ctx().call('/hotel/location/edit', { id: places[target].floor, name: '2F', sort: 0, version: 0 }, token),
      },
      '/hotel/location/removal': { expect: NO_LOCATION, call: (token, target) => ctx().call('/hotel/location/removal', { id: places[target].floor }, token) },
      '/hotel/location/rooms/creation': {
        expect: NO_PARENT,
        call: (token, target) => ctx().call('/hotel/location/rooms/creation', { floorId: places[target].floor, from: '0101', to: '0102' }, token),
      },
      '/hotel/location/creation': {
        expect: NO_PARENT,
        call: (token, target) => ctx().call('/hotel/location/creation', { parentId: places[target].building, kind: 'floor', name: '9F', sort: 0 }, token),
      },
    };
    /** The tree and every screen's location picker: the same answer, checked below. */
    const trees = ['GET /hotel/location/tree', ...pickersOf('location')] as const;
    const lists: Partial<Record<EndpointKey, true>> = Object.fromEntries(trees.map((key) => [key, true]));

    it('covers every contract endpoint that declares the location entity', () => {
      const declared = (Object.keys(contract) as EndpointKey[]).filter((key) => (contract[key] as { scope?: string }).scope === 'location');
      expect(declared.filter((key) => !probes[key] && !lists[key])).toEqual([]);
    });

    it.each(['region.r1', 'hotel.a', 'custom.ac', 'self.only'])('%s: out-of-scope locations answer 404 and nothing changes', async (name) => {
      const caller = callers[name];
      const all = () => ctx().database.db.selectFrom('hotelLocation').selectAll().orderBy('id').execute();
      for (const target of HOTELS.filter((hotel) => !caller.sees.includes(hotel))) {
        for (const [key, probe] of Object.entries(probes)) {
          const before = await all();
          expect({ key, target, answer: await probe.call(caller.token, target) }).toEqual({ key, target, answer: probe.expect });
          expect(await all()).toEqual(before);
        }
      }
    });

    it.each(['group.all', 'region.r1', 'hotel.a', 'custom.ac', 'self.only'])('%s: the tree holds the buildings of the scope with their floors', async (name) => {
      const caller = callers[name];
      const tree = expectOk(await ctx().call('GET /hotel/location/tree', null, caller.token));
      const ids = tree.map((row) => row.id);
      for (const hotel of HOTELS) {
        const seen = caller.sees.includes(hotel);
        expect({ hotel, building: ids.includes(places[hotel].building), floor: ids.includes(places[hotel].floor) }).toEqual({ hotel, building: seen, floor: seen });
      }
      if (name !== 'group.all') expect(tree.every((row) => row.kind !== 'building' || caller.sees.some((hotel) => row.orgId === units[hotel]))).toBe(true);
      for (const key of trees) expect({ key, tree: expectOk(await ctx().call(key, null, caller.token)) }).toEqual({ key, tree });
    });

    it('a building goes only into a hotel of the scope', async () => {
      expect(await ctx().call('/hotel/location/creation', { parentId: 0, kind: 'building', name: '越界楼', sort: 0, orgId: units.C }, callers['hotel.a'].token)).toEqual({
        code: 404,
        msg: '所属酒店不存在',
        data: null,
      });
      const made = expectOk(await ctx().call('/hotel/location/creation', { parentId: 0, kind: 'building', name: 'A2楼', sort: 0 }, callers['hotel.a'].token));
      expect(made.orgId).toBe(units.A);
    });
  });

  describe('every endpoint declaring the log entity, for every caller', () => {
    const lists: Partial<Record<EndpointKey, true>> = {
      '/monitor/operation/inquire': true,
      '/monitor/operation/export': true,
      '/monitor/operation/detail': true,
      '/monitor/login/inquire': true,
      '/monitor/login/export': true,
    };
    /** The units whose records a caller sees (null: every record). */
    const unitsOf = (name: string) => (name === 'group.all' ? null : [...callers[name].sees.map((hotel) => units[hotel]), ...(name === 'region.r1' ? [units.R1] : [])]);

    it('covers every contract endpoint that declares the log entity', () => {
      const declared = (Object.keys(contract) as EndpointKey[]).filter((key) => (contract[key] as { scope?: string }).scope === 'log');
      expect(declared.filter((key) => !lists[key])).toEqual([]);
    });

    it('records the actor’s unit and the target’s unit', async () => {
      const rows = await ctx()
        .database.db.selectFrom('sysOperationLog')
        .select(['actorOrgId', 'targetOrgId', 'targetType', 'targetId'])
        .where('path', 'in', ['/sys/user/creation', '/hotel/device/creation'])
        .where('outcome', '=', 'success')
        .execute();
      for (const hotel of HOTELS) {
        expect(rows.find((row) => row.targetType === 'user' && row.targetId === String(staff[hotel].id))).toEqual(
          expect.objectContaining({ actorOrgId: root, targetOrgId: units[hotel] }),
        );
        expect(rows.find((row) => row.targetType === 'device' && row.targetId === String(devices[hotel].id))).toEqual(
          expect.objectContaining({ actorOrgId: root, targetOrgId: units[hotel] }),
        );
      }
    });

    it.each(['group.all', 'region.r1', 'hotel.a', 'custom.ac', 'self.only'])(
      '%s: operation and login lists, totals, exports and details hold only records whose actor or target is in scope',
      async (name) => {
        const caller = callers[name];
        // A refused probe of another hotel's staff: its actor is the caller, its target that hotel.
        for (const hotel of HOTELS) await ctx().call('/sys/user/detail', { id: staff[hotel].id }, caller.token);
        const orgs = unitsOf(name);
        const db = ctx().database.db;
        const visibleOperations = async () =>
          (await db.selectFrom('sysOperationLog').select(['id', 'operatorId', 'actorOrgId', 'targetOrgId']).orderBy('id', 'desc').execute()).filter(
            (row) => orgs === null || (name === 'self.only' ? row.operatorId === caller.userId : orgs.includes(row.actorOrgId!) || orgs.includes(row.targetOrgId!)),
          );
        const operations = await visibleOperations();
        const page = expectOk(await ctx().call('/monitor/operation/inquire', { size: 100, current: 1 }, caller.token));
        expect(page.total).toBe(operations.length);
        expect(page.records.map((r) => r.id)).toEqual(operations.slice(0, 100).map((row) => row.id));
        // The export's own record may be written before its rows are read: only the records before it are compared.
        const newest = (await db.selectFrom('sysOperationLog').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
        const file = await download(ctx(), '/monitor/operation/export', {}, caller.token);
        expect(
          file.rows
            .slice(1)
            .map((row) => row[0] as number)
            .filter((id) => id <= newest),
        ).toEqual(operations.map((row) => row.id));

        const hidden = await db
          .selectFrom('sysOperationLog')
          .select('id')
          .where('id', '<=', newest)
          .where('id', 'not in', [0, ...operations.map((row) => row.id)])
          .orderBy('id')
          .limit(1)
          .executeTakeFirst();
        if (hidden) expect(await ctx().call('/monitor/operation/detail', { id: hidden.id }, caller.token)).toEqual({ code: 404, msg: '操作日志不存在', data: null });
        if (operations.length > 0) expect(expectOk(await ctx().call('/monitor/operation/detail', { id: operations[0].id }, caller.token)).id).toBe(operations[0].id);
        if (name !== 'group.all') expect(hidden).toBeDefined();

        const logins = (await db.selectFrom('sysLoginLog').select(['id', 'userId', 'orgId']).orderBy('id', 'desc').execute()).filter(
          (row) => orgs === null || (name === 'self.only' ? row.userId === caller.userId : orgs.includes(row.orgId!)),
        );
        expect(logins.length).toBeGreaterThan(0);
        const loginPage = expectOk(await ctx().call('/monitor/login/inquire', { size: 100, current: 1 }, caller.token));
        expect(loginPage.total).toBe(logins.length);
        expect(loginPage.records.map((r) => r.id)).toEqual(logins.slice(0, 100).map((row) => row.id));
        const loginFile = await download(ctx(), '/monitor/login/export', {}, caller.token);
        expect(loginFile.rows.slice(1).length).toBe(logins.length);
      },
    );
  });

  describe('every endpoint declaring the advanced or message entity, for every caller and target', () => {
    const probes: Partial<Record<EndpointKey, { expect: unknown; call: (token: string, target: Hotel) => Promise<unknown> }>> = {
      '/hotel/advanced/edit': {
        expect: { code: 404, msg: '高级设置不存在', data: null },
        call: (token, target) => {
          const { id, name, version } = settings[target];
          return ctx().call('/hotel/advanced/edit', { id, name: `${name}改`, endpointUrl: '', appKey: '', appSecret: '', state: 1, remark: '', version }, token);
        },
      },
      '/hotel/advanced/jd/edit': {
        expect: { code: 404, msg: '高级设置不存在', data: null },
        call: (token, target) => ctx().call('/hotel/advanced/jd/edit', { id: settings[target].id }, token),
      },
      '/monitor/message/resend': {
        expect: { code: 404, msg: '通知记录不存在', data: null },
        call: (token, target) => ctx().call('/monitor/message/resend', { ids: [messages[target]] }, token),
      },
    };
    const lists: Partial<Record<EndpointKey, true>> = { '/hotel/advanced/inquire': true, '/monitor/message/inquire': true, '/monitor/message/export': true };
    const placing: Partial<Record<EndpointKey, true>> = { '/hotel/advanced/creation': true };
    const state = async () => ({
      settings: await ctx().database.db.selectFrom('hotelAdvanced').selectAll().orderBy('id').execute(),
      messages: await ctx().database.db.selectFrom('notifyMessage').selectAll().orderBy('id').execute(),
    });

    it('covers every contract endpoint that declares the advanced or message entity', () => {
      const declared = (Object.keys(contract) as EndpointKey[]).filter((key) => ['advanced', 'message'].includes((contract[key] as { scope?: string }).scope ?? ''));
      expect(declared.filter((key) => !probes[key] && !lists[key] && !placing[key])).toEqual([]);
    });

    it.each(['region.r1', 'hotel.a', 'custom.ac', 'self.only'])('%s: out-of-scope settings and messages answer 404 and nothing changes', async (name) => {
      const caller = callers[name];
      for (const target of HOTELS.filter((hotel) => !caller.sees.includes(hotel))) {
        for (const [key, probe] of Object.entries(probes)) {
          const before = await state();
          expect({ key, target, answer: await probe.call(caller.token, target) }).toEqual({ key, target, answer: probe.expect });
          expect(await state()).toEqual(before);
        }
      }
    });

    it.each(['group.all', 'region.r1', 'hotel.a', 'custom.ac', 'self.only'])('%s: the lists, totals and export hold only the scope’s settings and messages', async (name) => {
      const caller = callers[name];
      const seen = name === 'group.all' ? HOTELS : caller.sees;
      const page = expectOk(await ctx().call('/hotel/advanced/inquire', { size: 100, current: 1 }, caller.token));
      const stored = await ctx().database.db.selectFrom('hotelAdvanced').select(['id', 'orgId', 'createdBy']).execute();
      const visible = stored.filter((row) =>
        name === 'group.all'
          ? true
          : name === 'self.only'
            ? row.createdBy === caller.userId
            : caller.sees.some((hotel) => row.orgId === units[hotel]) || (name === 'region.r1' && row.orgId === units.R1),
      );
      expect(page.records.map((r) => r.id).sort((a, b) => a - b)).toEqual(visible.map((row) => row.id).sort((a, b) => a - b));
      expect(page.total).toBe(visible.length);

      const expected = [...seen.map((hotel) => messages[hotel]), ...(name === 'group.all' ? [testMessage] : [])].sort((a, b) => a - b);
      const listed = expectOk(await ctx().call('/monitor/message/inquire', { size: 100, current: 1 }, caller.token));
      expect(listed.records.map((r) => r.id).sort((a, b) => a - b)).toEqual(expected);
      expect(listed.total).toBe(expected.length);
      const file = await download(ctx(), '/monitor/message/export', {}, caller.token);
      expect(
        file.rows
          .slice(1)
          .map((row) => row[0] as number)
          .sort((a, b) => a - b),
      ).toEqual(expected);
    });

    it('a scoped caller places a setting only in a hotel of the scope', async () => {
      const hotelA = callers['hotel.a'].token;
      const before = await state();
      const body = { endpointUrl: '', appKey: '', appSecret: '', state: 1, remark: '' };
      expect(await ctx().call('/hotel/advanced/creation', { ...body, name: '越界对接', orgId: units.B }, hotelA)).toEqual({ code: 404, msg: '所属酒店不存在', data: null });
      expect(await state()).toEqual(before);
      const made = expectOk(await ctx().call('/hotel/advanced/creation', { ...body, name: '上海对接' }, hotelA));
      expect(made.orgId).toBe(units.A);
      const moved = await ctx().call('/hotel/advanced/edit', { ...body, id: made.id, name: made.name, orgId: units.C, version: made.version }, hotelA);
      expect(moved).toEqual({ code: 404, msg: '所属酒店不存在', data: null });
      expect((await ctx().database.db.selectFrom('hotelAdvanced').select('orgId').where('id', '=', made.id).executeTakeFirstOrThrow()).orgId).toBe(units.A);
    });
  });

  it.each(['group.all', 'region.r1', 'hotel.a', 'custom.ac'])('%s: the panel counts only the scope’s users, devices and alarms', async (name) => {
    const caller = callers[name];
    const grant = await menuGrants(ctx(), '/sys/panel');
    expectOk(await ctx().call('/sys/role/auth', { roleId: caller.roleId, grant, revoke: [] }, admin));
    const panel = expectOk(await ctx().call('/sys/panel/inquire', {}, caller.token));
    const db = ctx().database.db;
    const orgs = name === 'group.all' ? null : [...caller.sees.map((hotel) => units[hotel]), ...(name === 'region.r1' ? [units.R1] : [])];
    const devicesIn = (await db.selectFrom('hotelDevice').select(['id', 'orgId', 'type']).execute()).filter((row) => orgs === null || orgs.includes(row.orgId!));
    const usersIn = (await db.selectFrom('sysUser').select(['id', 'orgId']).execute()).filter((row) => orgs === null || orgs.includes(row.orgId!));
    const alarmsIn = (await db.selectFrom('hotelAlarm').select(['deviceId']).where('clearedAt', 'is', null).execute()).filter((row) =>
      devicesIn.some((d) => d.id === row.deviceId),
    );
    expect({ devices: panel.devices, users: panel.users, alarms: panel.alarmsActive }).toEqual({ devices: devicesIn.length, users: usersIn.length, alarms: alarmsIn.length });
    expect(panel.devicesByType.reduce((sum, row) => sum + row.count, 0)).toBe(devicesIn.length);
    expectOk(await ctx().call('/sys/role/auth', { roleId: caller.roleId, grant: [], revoke: grant }, admin));
  });

  it.each(['group.all', 'region.r1', 'hotel.a', 'self.only'])('%s: a role’s user count holds only the users in scope', async (name) => {
    const caller = callers[name];
    const grant = await menuGrants(ctx(), '/sys/role');
    expectOk(await ctx().call('/sys/role/auth', { roleId: caller.roleId, grant, revoke: [] }, admin));
    const roles = expectOk(await ctx().call('/sys/role/inquire', { size: 100, current: 1 }, caller.token)).records;
    const orgs = name === 'group.all' ? null : [...caller.sees.map((hotel) => units[hotel]), ...(name === 'region.r1' ? [units.R1] : [])];
    const users = await ctx().database.db.selectFrom('sysUser').select(['id', 'orgId', 'roleId']).execute();
    for (const role of roles) {
      const members = users.filter((u) => u.roleId === role.id && (orgs === null || (name === 'self.only' ? u.id === caller.userId : orgs.includes(u.orgId!))));
      expect({ role: role.name, userCount: role.userCount }).toEqual({ role: role.name, userCount: members.length });
    }
  });

  describe('escalation', () => {
    it('cannot create or move a user outside the scope', async () => {
      const before = await userCount();
      expect(await addUser(callers['hotel.a'].token, 'outside.b', units.B)).toEqual({ code: 404, msg: '所属单位不存在', data: null });
      expect(await userCount()).toBe(before);
      const made = expectOk(await addUser(callers['hotel.a'].token, 'inside.a', units.A));
      expect(made.orgId).toBe(units.A);
      const moved = await ctx().call(
        '/sys/user/edit',
        { id: made.id, nickName: made.nickName, state: 1, roleId: null, orgId: units.C, version: made.version },
        callers['hotel.a'].token,
      );
      expect(moved).toEqual({ code: 404, msg: '所属单位不存在', data: null });
      expect(expectOk(await ctx().call('/sys/user/detail', { id: made.id }, admin)).orgId).toBe(units.A);
    });

    it('cannot bind a user to a role whose scope is wider than their own', async () => {
      const wide = callers['group.all'];
      const target = expectOk(await addUser(callers['region.r1'].token, 'bind.target', units.A));
      const refused = await ctx().call('/sys/role/bind/user', { userId: target.id, roleId: wide.roleId }, callers['region.r1'].token);
      expect(refused).toEqual({ code: 403, msg: '不能将用户加入数据范围超出自己的角色', data: null });
      expect(expectOk(await ctx().call('/sys/user/detail', { id: target.id }, admin)).roleId).toBeNull();
      // The hotel's own unit-only role is within the region's scope.
      expect((await ctx().call('/sys/role/bind/user', { userId: target.id, roleId: callers['hotel.a'].roleId }, callers['region.r1'].token)).code).toBe(200);
    });

    it('cannot widen their own role, nor give a role units outside their scope', async () => {
      const me = callers['hotel.a'];
      const role = expectOk(await ctx().call('/sys/role/inquire', { size: 100, current: 1 }, admin)).records.find((r) => r.id === me.roleId)!;
      const widen = await ctx().call('/sys/role/edit', { id: role.id, name: role.name, remark: '', state: 1, dataScope: 'orgAndBelow', version: role.version }, me.token);
      expect(widen).toEqual({ code: 403, msg: '不能修改自己所属角色的数据范围', data: null });
      const all = await ctx().call('/sys/role/creation', { name: '越权全部', remark: '', state: 1, dataScope: 'all' }, callers['region.r1'].token);
      expect(all).toEqual({ code: 403, msg: '不能设置超出自己的数据范围', data: null });
      const custom = await ctx().call('/sys/role/creation', { name: '越权指定', remark: '', state: 1, dataScope: 'custom', scopeOrgIds: [units.C] }, callers['region.r1'].token);
      expect(custom).toEqual({ code: 404, msg: '指定单位不存在', data: null });
      const roles = await ctx().database.db.selectFrom('sysRole').select('name').where('name', 'in', ['越权全部', '越权指定']).execute();
      expect(roles).toEqual([]);
      // The form sends the scope back unchanged with a new name: that is no widening.
      expect(
        expectOk(await ctx().call('/sys/role/edit', { id: role.id, name: `${role.name}改`, remark: '', state: 1, dataScope: 'org', version: role.version }, me.token)).dataScope,
      ).toBe('org');
    });
  });

  describe('组织管理', () => {
    it('edits and removes only units of the scope, and only empty ones', async () => {
      const region = callers['region.r1'].token;
      expect(await ctx().call('/sys/org/removal', { id: units.C }, region)).toEqual({ code: 404, msg: '单位不存在', data: null });
      expect(await ctx().call('/sys/org/creation', { pid: units.R2, name: '越界店', kind: 'hotel', code: 'HX', state: 1, sort: 0, remark: '' }, region)).toMatchObject({
        code: 404,
      });
      // A unit-only scope cannot add units: they would fall outside it.
      expect(
        await ctx().call('/sys/org/creation', { pid: units.A, name: '前厅部', kind: 'department', code: 'HA-FO', state: 1, sort: 0, remark: '' }, callers['hotel.a'].token),
      ).toMatchObject({
        code: 404,
      });
      const dept = expectOk(await ctx().call('/sys/org/creation', { pid: units.A, name: '前厅部', kind: 'department', code: 'HA-FO', state: 1, sort: 0, remark: '' }, region));
      expect(await ctx().call('/sys/org/removal', { id: units.A }, region)).toEqual({ code: 409, msg: '单位「上海店」下还有下级单位，请先删除下级单位', data: null });
      // Moving a unit out of the region is refused: its new parent is out of scope.
      const { createdAt: _created, updatedAt: _updated, ...fields } = dept;
      expect(await ctx().call('/sys/org/edit', { ...fields, pid: units.C }, region)).toMatchObject({ code: 404, msg: '上级单位不存在' });
      expect(await ctx().call('/sys/org/edit', { ...fields, pid: dept.id }, admin)).toEqual({ code: 400, msg: '不能把单位移到它自己或它的下级单位下', data: null });
      expect(expectOk(await ctx().call('/sys/org/edit', { ...fields, name: '前厅', pid: null }, region))).toMatchObject({ name: '前厅', pid: units.A, version: 1 });
      expectOk(await ctx().call('/sys/org/removal', { id: dept.id }, region));
      expect(await ctx().call('/sys/org/removal', { id: units.A }, admin)).toMatchObject({ code: 409 });
    });
  });

  describe('a scope of several units, read unit by unit', () => {
    // Last in the file: the devices it adds would change the counts the tests above expect.
    it.each(['region.r1', 'custom.ac'])('%s: pages by number and stepped on from their last row hold the in-scope devices in id order', async (name) => {
      const caller = callers[name];
      // The hotels' devices in turn, so neighbouring ids belong to different units; one deleted.
      const added: number[] = [];
      for (let i = 0; i < 4; i += 1)
        for (const hotel of HOTELS) added.push(expectOk(await addDevice(admin, `UNITS-${name.replace('.', '-')}-${hotel}-${i}`, units[hotel])).device.id);
      expectOk(await ctx().call('/hotel/device/removal', { id: added[3] }, admin));
      const inScope = new Set([...caller.sees.map((hotel) => units[hotel]), ...(name === 'region.r1' ? [units.R1] : [])]);
      const visible = (await ctx().database.db.selectFrom('hotelDevice').select(['id', 'orgId']).where('deletedAt', 'is', null).orderBy('id').execute())
        .filter((row) => inScope.has(row.orgId!))
        .map((row) => row.id);
      expect(visible).not.toContain(added[3]);
      const size = 3;
      const byNumber: number[] = [];
      const steppedOn: number[] = [];
      for (let current = 1; (current - 1) * size < visible.length; current += 1) {
        const page = expectOk(await ctx().call('/hotel/device/inquire', { size, current }, caller.token));
        expect(page.total).toBe(visible.length);
        byNumber.push(...page.records.map((r) => r.id));
        const after = steppedOn.at(-1);
        const stepped = expectOk(await ctx().call('/hotel/device/inquire', { size, current, ...(after === undefined ? {} : { after }) }, caller.token));
        steppedOn.push(...stepped.records.map((r) => r.id));
      }
      expect(byNumber).toEqual(visible);
      expect(steppedOn).toEqual(visible);
    });
  });
});
