import { describeOnEachDatabase } from './support/harness';
import type { EndpointKey } from '../../src/contract';
import { USER_PASSWORD, createRole, createUser, expectOk, menuGrants, menuId, resourceId, rowCount, signedInOperator } from './support/sys-fixtures';

/** Every system endpoint guarded by a resource (the device-only role must be refused all of them). */
const SYSTEM_ENDPOINTS: EndpointKey[] = [
  '/sys/panel/inquire',
  '/sys/user/inquire',
  '/sys/user/creation',
  '/sys/user/edit',
  '/sys/user/detail',
  '/sys/user/password/reset',
  '/sys/role/inquire',
  '/sys/role/creation',
  '/sys/role/edit',
  '/sys/menu/resources',
  '/sys/role/auth',
  'GET /sys/role/auth',
  '/sys/role/bind/user',
  '/sys/role/unbind/user',
  '/sys/menu/inquire',
  '/sys/menu/creation',
  '/sys/menu/edit',
  '/sys/resource/menu/inquire',
  '/sys/resource/inquire',
  '/sys/resource/creation',
  '/sys/resource/edit',
  '/sys/dict/inquire',
  '/sys/dict/creation',
  '/sys/dict/edit',
  '/sys/resource/inquires',
  '/sys/dict/bind',
  '/sys/dict/unbind',
];

const sortGrants = <T extends { type: string; resource: number }>(grants: T[]) => [...grants].sort((a, b) => a.type.localeCompare(b.type) || a.resource - b.resource);

describeOnEachDatabase('sys/role', (ctx) => {
  let admin: string;
  let adminRoleId: number;
  beforeAll(async () => {
    admin = await ctx().login();
    adminRoleId = expectOk(await ctx().call('/sys/role/inquire', { size: 20, current: 1 }, admin)).records[0].id;
  });
  const grantsOf = async (roleId: number) => sortGrants(expectOk(await ctx().call('GET /sys/role/auth', { roleId }, admin)));

  describe('inquire, creation and edit', () => {
    it('creates a role and pages roles with their user counts', async () => {
      const created = await ctx().call('/sys/role/creation', { name: '客房部', remark: '客房服务', state: 1 }, admin);
      expect(created).toMatchObject({ code: 200, data: { name: '客房部', builtin: 0, userCount: 0, version: 0 } });
      await createUser(ctx(), admin, 'maid01', created.data.id);
      await createUser(ctx(), admin, 'maid02', created.data.id);
      const page = expectOk(await ctx().call('/sys/role/inquire', { size: 20, current: 1, params: { name: '客房' } }, admin));
      expect(page.total).toBe(1);
      expect(page.records[0]).toMatchObject({ name: '客房部', userCount: 2 });
      const first = expectOk(await ctx().call('/sys/role/inquire', { size: 1, current: 1 }, admin));
      expect(first.records[0]).toMatchObject({ id: adminRoleId, builtin: 1, userCount: 1 });
      expect(first.total).toBe(2);
      expect(expectOk(await ctx().call('/sys/role/inquire', { size: 20, current: 1, params: { state: 0 } }, admin)).total).toBe(0);
    });

    it('checks paging bounds and filter keys', async () => {
      expect(await ctx().call('/sys/role/inquire', { size: 101, current: 1 }, admin)).toMatchObject({ code: 400, msg: '每页条数不能大于 100' });
      expect(await ctx().call('/sys/role/inquire', { size: 10, current: 1, params: { builtin: 1 } }, admin)).toMatchObject({ code: 400, msg: '不支持的字段：builtin' });
      const total = expectOk(await ctx().call('/sys/role/inquire', { size: 10, current: 1 }, admin)).total;
      expect(expectOk(await ctx().call('/sys/role/inquire', { size: 10, current: 5 }, admin))).toEqual({ records: [], current: 5, size: 10, total, totalIsLowerBound: false });
    });

    it('refuses invalid fields and duplicate names without writing', async () => {
      const before = await rowCount(ctx(), 'sysRole');
      expect(await ctx().call('/sys/role/creation', { name: '', remark: '', state: 1 }, admin)).toMatchObject({ code: 400, msg: '角色名称不能为空' });
      expect(await ctx().call('/sys/role/creation', { name: '很'.repeat(33), remark: '', state: 1 }, admin)).toMatchObject({
        code: 400,
        msg: '角色名称长度不能超过 32 个字符',
      });
      expect(await ctx().call('/sys/role/creation', { name: '客房部', remark: '', state: 1 }, admin)).toMatchObject({ code: 409, msg: '角色名称 客房部 已存在' });
      expect(await rowCount(ctx(), 'sysRole')).toBe(before);
    });

    it('edits a role with its version; stale, duplicate and unknown are refused', async () => {
      const role = await createRole(ctx(), admin, '餐饮部');
      const edited = expectOk(await ctx().call('/sys/role/edit', { id: role.id, name: '餐饮中心', remark: '早餐', state: 0, version: role.version }, admin));
      expect(edited).toMatchObject({ name: '餐饮中心', remark: '早餐', state: 0, version: role.version + 1 });
      expect(await ctx().call('/sys/role/edit', { id: role.id, name: '餐饮X', remark: '', state: 1, version: role.version }, admin)).toMatchObject({
        code: 409,
        msg: '数据已被他人修改，请刷新后重试',
      });
      expect(await ctx().call('/sys/role/edit', { id: role.id, name: '客房部', remark: '', state: 1, version: edited.version }, admin)).toMatchObject({
        code: 409,
        msg: '角色名称 客房部 已存在',
      });
      expect(await ctx().call('/sys/role/edit', { id: 999999, name: 'x', remark: '', state: 1, version: 0 }, admin)).toMatchObject({ code: 404, msg: '角色不存在' });
      const stored = expectOk(await ctx().call('/sys/role/inquire', { size: 20, current: 1, params: { name: '餐饮' } }, admin)).records[0];
      expect(stored).toMatchObject({ name: '餐饮中心', version: edited.version });
    });

    it('refuses disabling the built-in role', async () => {
      const builtin = expectOk(await ctx().call('/sys/role/inquire', { size: 1, current: 1 }, admin)).records[0];
      expect(await ctx().call('/sys/role/edit', { id: builtin.id, name: builtin.name, remark: '', state: 0, version: builtin.version }, admin)).toMatchObject({
        code: 400,
        msg: '超级管理员角色不能停用',
      });
    });
  });

  describe('menus with resources', () => {
    it('pages every menu with its resources, 15 per page on the grant dialog', async () => {
      const menus = await rowCount(ctx(), 'sysMenu');
      const page = expectOk(await ctx().call('/sys/menu/resources', { size: 15, current: 1 }, admin));
      expect(page.total).toBe(menus);
      expect(page.records.length).toBe(Math.min(15, menus));
      const device = expectOk(await ctx().call('/sys/menu/resources', { size: 15, current: 1, params: { name: '设备' } }, admin));
      expect(device.total).toBe(1);
      expect(device.records[0].resources.map((r) => r.path)).toEqual(expect.arrayContaining(['/hotel/device/inquire', '/hotel/device/creation', '/hotel/device/edit', '']));
      expect(device.records[0].resources.every((r) => r.menuId === device.records[0].id)).toBe(true);
      expect(await ctx().call('/sys/menu/resources', { size: 16, current: 1, params: { path: '/' } }, admin)).toMatchObject({ code: 400, msg: '不支持的字段：path' });
    });
  });

  describe('grants', () => {
    it('grants and revokes in one request, answering and reading the full binding list', async () => {
      const role = await createRole(ctx(), admin, '工程部');
      const device = await menuGrants(ctx(), '/hotel/device');
      const answer = await ctx().call('/sys/role/auth', { roleId: role.id, grant: device, revoke: [] }, admin);
      expect(answer.code).toBe(200);
      expect(sortGrants(answer.data)).toEqual(sortGrants(device));
      expect(await grantsOf(role.id)).toEqual(sortGrants(device));

      const [menu, ...resources] = device;
      const advanced = await menuGrants(ctx(), '/hotel/advanced');
      const next = expectOk(await ctx().call('/sys/role/auth', { roleId: role.id, grant: [advanced[0], menu], revoke: resources }, admin));
      expect(sortGrants(next)).toEqual(sortGrants([menu, advanced[0]]));
    });

    it('granting a resource grants its menu too, so the role is never left without the screen', async () => {
      const role = await createRole(ctx(), admin, '只读设备');
      const inquire = { type: 'resource' as const, resource: await resourceId(ctx(), '/hotel/device/inquire') };
      const deviceMenu = { type: 'menu' as const, resource: await menuId(ctx(), '/hotel/device') };
      const granted = expectOk(await ctx().call('/sys/role/auth', { roleId: role.id, grant: [inquire], revoke: [] }, admin));
      expect(sortGrants(granted)).toEqual(sortGrants([inquire, deviceMenu]));

      const user = await createUser(ctx(), admin, 'readonly01', role.id);
      expect(user.roleId).toBe(role.id);
      const token = await ctx().login('readonly01', USER_PASSWORD);
      const authority = expectOk(await ctx().call('GET /sys/menu/authority', null, token));
      expect(authority.find((menu) => menu.element === 'hotel/device')).toMatchObject({ granted: ['api_inquire'] });
    });

    it('a request with one unknown item changes nothing', async () => {
      const role = await createRole(ctx(), admin, '保安部', [{ type: 'menu', resource: await menuId(ctx(), '/hotel/device') }]);
      const before = await grantsOf(role.id);
      const rows = await rowCount(ctx(), 'sysRoleAuth');
      const good = await menuGrants(ctx(), '/hotel/advanced');
      expect(await ctx().call('/sys/role/auth', { roleId: role.id, grant: [...good, { type: 'resource', resource: 999999 }], revoke: before }, admin)).toMatchObject({
        code: 404,
        msg: '资源（编号 999999）不存在',
      });
      expect(await ctx().call('/sys/role/auth', { roleId: role.id, grant: good, revoke: [{ type: 'menu', resource: 999998 }] }, admin)).toMatchObject({
        code: 404,
        msg: '菜单（编号 999998）不存在',
      });
      expect(await ctx().call('/sys/role/auth', { roleId: role.id, grant: [...good, { type: 'role', resource: 1 }], revoke: [] }, admin)).toMatchObject({
        code: 400,
        msg: '授权类型取值不正确',
      });
      expect(await ctx().call('/sys/role/auth', { roleId: role.id, grant: good, revoke: good.slice(0, 1) }, admin)).toMatchObject({
        code: 400,
        msg: '同一权限不能同时授予和撤销',
      });
      expect(await grantsOf(role.id)).toEqual(before);
      expect(await rowCount(ctx(), 'sysRoleAuth')).toBe(rows);
    });

    it('refuses unknown roles and editing the built-in role, which reads as holding everything', async () => {
      const grant = [{ type: 'menu', resource: await menuId(ctx(), '/hotel/device') }];
      expect(await ctx().call('/sys/role/auth', { roleId: 999999, grant, revoke: [] }, admin)).toMatchObject({ code: 404, msg: '角色不存在' });
      expect(await ctx().call('GET /sys/role/auth', { roleId: 999999 }, admin)).toMatchObject({ code: 404, msg: '角色不存在' });
      expect(await ctx().call('/sys/role/auth', { roleId: adminRoleId, grant, revoke: [] }, admin)).toMatchObject({ code: 400 });
      const all = await grantsOf(adminRoleId);
      expect(all.filter((g) => g.type === 'menu')).toHaveLength(await rowCount(ctx(), 'sysMenu'));
      expect(all.filter((g) => g.type === 'resource')).toHaveLength(await rowCount(ctx(), 'sysResource'));
    });
  });

  describe('a role granted only the device menu', () => {
    let device: Awaited<ReturnType<typeof signedInOperator>>;
    beforeAll(async () => {
      device = await signedInOperator(ctx(), admin, 'device.keeper', await menuGrants(ctx(), '/hotel/device'));
    });

    it('sees only the device menu (and its parent)', async () => {
      const menu = expectOk(await ctx().call('GET /sys/menu/authority', null, device.token));
      expect(menu.map((m) => m.path).sort()).toEqual(['/hotel', '/hotel/device']);
    });

    it.each(SYSTEM_ENDPOINTS)('is refused %s with 403', async (key) => {
      const answer = await ctx().call(key, key.startsWith('GET ') ? { roleId: device.role.id } : {}, device.token);
      expect(answer).toMatchObject({ code: 403, data: null });
    });
  });

  describe('grants take effect immediately', () => {
    it('a revoked resource is refused on the very next call with the same token', async () => {
      const inquire = { type: 'resource' as const, resource: await resourceId(ctx(), '/sys/role/inquire') };
      const op = await signedInOperator(ctx(), admin, 'role.reader', [inquire]);
      expect((await ctx().call('/sys/role/inquire', { size: 10, current: 1 }, op.token)).code).toBe(200);
      expectOk(await ctx().call('/sys/role/auth', { roleId: op.role.id, grant: [], revoke: [inquire] }, admin));
      expect((await ctx().call('/sys/role/inquire', { size: 10, current: 1 }, op.token)).code).toBe(403);
      expectOk(await ctx().call('/sys/role/auth', { roleId: op.role.id, grant: [inquire], revoke: [] }, admin));
      expect((await ctx().call('/sys/role/inquire', { size: 10, current: 1 }, op.token)).code).toBe(200);
    });

    it('a granted menu shows on the next authority fetch', async () => {
      const op = await signedInOperator(ctx(), admin, 'late.bloomer', []);
      expect(expectOk(await ctx().call('GET /sys/menu/authority', null, op.token))).toEqual([]);
      expectOk(await ctx().call('/sys/role/auth', { roleId: op.role.id, grant: [{ type: 'menu', resource: await menuId(ctx(), '/hotel/device') }], revoke: [] }, admin));
      const menu = expectOk(await ctx().call('GET /sys/menu/authority', null, op.token));
      expect(menu.map((m) => m.path).sort()).toEqual(['/hotel', '/hotel/device']);
    });
  });

  describe('users of a role', () => {
    it('binds (moving the user) and unbinds, listing 10 per page', async () => {
      const front = await createRole(ctx(), admin, '行李房');
      const back = await createRole(ctx(), admin, '后勤部');
      const user = await createUser(ctx(), admin, 'concierge', front.id);
      expect(await ctx().call('/sys/role/bind/user', { userId: user.id, roleId: back.id }, admin)).toEqual({ code: 200, msg: '绑定成功', data: null });
      const listed = expectOk(await ctx().call('/sys/user/inquire', { size: 10, current: 1, params: { roleId: back.id } }, admin));
      expect(listed.records.map((u) => u.userName)).toEqual(['concierge']);
      expect(expectOk(await ctx().call('/sys/user/inquire', { size: 10, current: 1, params: { roleId: front.id } }, admin)).total).toBe(0);

      expect(await ctx().call('/sys/role/unbind/user', { userId: user.id, roleId: front.id }, admin)).toMatchObject({ code: 400, msg: '该用户不属于此角色' });
      expect(await ctx().call('/sys/role/unbind/user', { userId: user.id, roleId: back.id }, admin)).toEqual({ code: 200, msg: '解绑成功', data: null });
      expect(expectOk(await ctx().call('/sys/user/detail', { id: user.id }, admin)).roleId).toBeNull();
      await expect(ctx().login('concierge', USER_PASSWORD)).rejects.toThrow(/用户未绑定角色/);
    });

    it('answers 404 for unknown users and roles', async () => {
      const role = await createRole(ctx(), admin, '洗衣房');
      const user = await createUser(ctx(), admin, 'laundry', null);
      expect(await ctx().call('/sys/role/bind/user', { userId: 999999, roleId: role.id }, admin)).toMatchObject({ code: 404, msg: '用户不存在' });
      expect(await ctx().call('/sys/role/bind/user', { userId: user.id, roleId: 999999 }, admin)).toMatchObject({ code: 404, msg: '角色不存在' });
      expect(await ctx().call('/sys/role/unbind/user', { userId: user.id, roleId: 999999 }, admin)).toMatchObject({ code: 404, msg: '角色不存在' });
      expect(await ctx().call('/sys/role/bind/user', { userId: 0, roleId: role.id }, admin)).toMatchObject({ code: 400, msg: '用户不能小于 1' });
      expect(expectOk(await ctx().call('/sys/user/detail', { id: user.id }, admin)).roleId).toBeNull();
    });
  });

  describe('escalation guards (docs/api/system.md)', () => {
    let op: Awaited<ReturnType<typeof signedInOperator>>;
    let adminUserId: number;
    beforeAll(async () => {
      // An operator who manages users and roles, but holds nothing of the dictionary screen.
      op = await signedInOperator(ctx(), admin, 'role.manager', [...(await menuGrants(ctx(), '/sys/role')), ...(await menuGrants(ctx(), '/sys/user'))]);
      adminUserId = expectOk(await ctx().call('/sys/user/inquire', { size: 1, current: 1 }, admin)).records[0].id;
    });

    it('only a built-in operator may put a user into the built-in role', async () => {
      const target = await createUser(ctx(), admin, 'hopeful', op.role.id);
      const users = await rowCount(ctx(), 'sysUser');
      expect(await ctx().call('/sys/role/bind/user', { userId: target.id, roleId: adminRoleId }, op.token)).toMatchObject({ code: 403 });
      expect(await ctx().call('/sys/user/creation', { userName: 'sneaky', nickName: 's', password: USER_PASSWORD, state: 1, roleId: adminRoleId }, op.token)).toMatchObject({
        code: 403,
      });
      expect(await ctx().call('/sys/user/edit', { id: target.id, nickName: target.nickName, state: 1, roleId: adminRoleId, version: target.version }, op.token)).toMatchObject({
        code: 403,
      });
      expect(expectOk(await ctx().call('/sys/user/detail', { id: target.id }, admin)).roleId).toBe(op.role.id);
      expect(await rowCount(ctx(), 'sysUser')).toBe(users);
    });

    it('only a built-in operator may edit, reset, disable or move a built-in user', async () => {
      const adminUser = expectOk(await ctx().call('/sys/user/detail', { id: adminUserId }, op.token));
      const edit = (fields: Record<string, unknown>) =>
        ctx().call('/sys/user/edit', { id: adminUserId, nickName: adminUser.nickName, state: 1, roleId: adminRoleId, version: adminUser.version, ...fields }, op.token);
      expect(await edit({ nickName: '被篡改' })).toMatchObject({ code: 403 });
      expect(await edit({ state: 0 })).toMatchObject({ code: 403 });
      expect(await ctx().call('/sys/user/password/reset', { id: adminUserId, password: 'Taken-Over-Castle-9' }, op.token)).toMatchObject({ code: 403 });
      expect(await ctx().call('/sys/role/unbind/user', { userId: adminUserId, roleId: adminRoleId }, op.token)).toMatchObject({ code: 403 });
      expect(await ctx().call('/sys/role/bind/user', { userId: adminUserId, roleId: op.role.id }, op.token)).toMatchObject({ code: 403 });
      expect(expectOk(await ctx().call('/sys/user/detail', { id: adminUserId }, admin))).toEqual(adminUser);
      expect((await ctx().call('GET /sys/menu/authority', null, admin)).code).toBe(200);
    });

    it('a non-built-in operator may hand out only roles within their own grants', async () => {
      const bigger = await createRole(ctx(), admin, '大权限', await menuGrants(ctx(), '/sys/dict'));
      const smaller = await createRole(ctx(), admin, '小权限', [{ type: 'resource', resource: await resourceId(ctx(), '/sys/user/inquire') }]);
      const target = await createUser(ctx(), admin, 'newcomer', null);
      expect(await ctx().call('/sys/role/bind/user', { userId: target.id, roleId: bigger.id }, op.token)).toMatchObject({ code: 403 });
      expect(expectOk(await ctx().call('/sys/user/detail', { id: target.id }, admin)).roleId).toBeNull();
      expect(await ctx().call('/sys/role/bind/user', { userId: target.id, roleId: smaller.id }, op.token)).toEqual({ code: 200, msg: '绑定成功', data: null });
      expect(expectOk(await ctx().call('/sys/user/detail', { id: target.id }, admin)).roleId).toBe(smaller.id);
    });

    it('an operator cannot grant or revoke what their own role lacks, and nothing is written', async () => {
      const role = await createRole(ctx(), admin, '接待组', await menuGrants(ctx(), '/sys/dict'));
      const before = await grantsOf(role.id);
      const held = { type: 'resource' as const, resource: await resourceId(ctx(), '/sys/user/inquire') };
      const lacking = { type: 'resource' as const, resource: await resourceId(ctx(), '/sys/dict/inquire') };
      expect(
        await ctx().call('/sys/role/auth', { roleId: role.id, grant: [held, { type: 'resource', resource: await resourceId(ctx(), '/sys/dict/edit') }], revoke: [] }, op.token),
      ).toMatchObject({
        code: 403,
        msg: '不能授予或撤销自己角色没有的权限：资源「编辑字典」',
      });
      expect(await ctx().call('/sys/role/auth', { roleId: role.id, grant: [], revoke: [lacking] }, op.token)).toMatchObject({ code: 403 });
      expect(await grantsOf(role.id)).toEqual(before);
      const granted = expectOk(await ctx().call('/sys/role/auth', { roleId: role.id, grant: [held], revoke: [] }, op.token));
      // The resource's menu comes with it, and the operator holds that too.
      expect(sortGrants(granted)).toEqual(sortGrants([...before, held, { type: 'menu', resource: await menuId(ctx(), '/sys/user') }]));
    });

    it('an operator cannot edit the built-in role', async () => {
      const builtin = expectOk(await ctx().call('/sys/role/inquire', { size: 1, current: 1 }, op.token)).records[0];
      expect(await ctx().call('/sys/role/edit', { id: builtin.id, name: '改名', remark: '', state: 1, version: builtin.version }, op.token)).toMatchObject({ code: 403 });
      expect(await ctx().call('/sys/role/auth', { roleId: builtin.id, grant: [], revoke: [] }, op.token)).toMatchObject({ code: 400 });
    });
  });

  describe('users of a role', () => {
    it('lists members 10 per page and candidates, for an operator holding only the role menu', async () => {
      const desk = await createRole(ctx(), admin, '宴会部');
      await createUser(ctx(), admin, 'concierge1', desk.id);
      await createUser(ctx(), admin, 'concierge2', desk.id);
      await createUser(ctx(), admin, 'outsider1', null);
      const operator = await signedInOperator(ctx(), admin, 'rolekeeper', await menuGrants(ctx(), '/sys/role'));
      expect((await ctx().call('/sys/user/inquire', { size: 10, current: 1 }, operator.token)).code).toBe(403);
      const members = expectOk(await ctx().call('/sys/role/user/inquire', { size: 10, current: 1, params: { roleId: desk.id } }, operator.token));
      expect(members).toMatchObject({ total: 2, size: 10 });
      expect(members.records.map((u) => u.userName)).toEqual(['concierge1', 'concierge2']);
      const candidates = expectOk(
        await ctx().call('/sys/role/user/inquire', { size: 10, current: 1, params: { roleId: desk.id, member: 0, userName: 'outsider' } }, operator.token),
      );
      expect(candidates.records.map((u) => u.userName)).toEqual(['outsider1']);
      expect(await ctx().call('/sys/role/user/inquire', { size: 10, current: 1, params: { roleId: 999999 } }, operator.token)).toMatchObject({ code: 404 });
    });
  });
});
