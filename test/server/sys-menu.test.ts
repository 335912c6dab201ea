import { describeOnEachDatabase } from './support/harness';
import type { MenuNode } from '../../src/contract/sys/menu';
import { expectOk, menuGrants, menuId, rowCount, signedInOperator } from './support/sys-fixtures';

const menuFields = { pid: null, name: '新菜单', path: '', element: '', icon: '', sort: 0, state: 1, isAuth: 1 };
const resourceFields = { name: '导出', type: 'button_export', path: '', remark: '' };

describeOnEachDatabase('sys/menu', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });

  describe('menus', () => {
    it('without filters answers top-level menus by sort with every descendant nested', async () => {
      const device = await menuId(ctx(), '/hotel/device');
      const nested = expectOk(await ctx().call('/sys/menu/creation', { ...menuFields, pid: device, name: '门锁', path: '/hotel/device/lock', sort: 1 }, admin));

      const page = expectOk(await ctx().call('/sys/menu/inquire', { size: 20, current: 1 }, admin));
      expect(page.total).toBe(3);
      expect(page.records.map((m) => m.path)).toEqual(['/sys', '/hotel', '/monitor']);
      const hotel = page.records[1];
      expect(hotel.children!.map((m) => m.path)).toEqual(['/hotel/device', '/hotel/location', '/hotel/alarm', '/hotel/advanced']);
      expect(hotel.children![0].children).toEqual([expect.objectContaining({ id: nested.id, pid: device, name: '门锁' })]);
      expect(hotel.children![1]).not.toHaveProperty('children');
      const sys = page.records[0];
      expect(sys.children!.map((m) => m.sort)).toEqual([...sys.children!.map((m) => m.sort)].sort((a, b) => a - b));

      const second = expectOk(await ctx().call('/sys/menu/inquire', { size: 1, current: 2 }, admin));
      expect(second.records.map((m: MenuNode) => m.path)).toEqual(['/hotel']);
      expect(second.total).toBe(3);
    });

    it('with filters answers the matching menus as a flat page', async () => {
      const page = expectOk(await ctx().call('/sys/menu/inquire', { size: 20, current: 1, params: { name: '用户管理' } }, admin));
      expect(page.total).toBe(1);
      expect(page.records[0]).toMatchObject({ path: '/sys/user', element: 'sys/user' });
      expect(page.records[0]).not.toHaveProperty('children');
      expect(expectOk(await ctx().call('/sys/menu/inquire', { size: 20, current: 1, params: { state: 0 } }, admin)).total).toBe(0);
      expect(await ctx().call('/sys/menu/inquire', { size: 101, current: 1 }, admin)).toMatchObject({ code: 400, msg: '每页条数不能大于 100' });
      expect(await ctx().call('/sys/menu/inquire', { size: 20, current: 1, params: { pid: 1 } }, admin)).toMatchObject({ code: 400, msg: '不支持的字段：pid' });
      expect(expectOk(await ctx().call('/sys/menu/inquire', { size: 20, current: 3, params: { name: '管理' } }, admin)).records).toEqual([]);
    });

    it('creates a menu; refuses an unknown parent and invalid fields without writing', async () => {
      const created = await ctx().call('/sys/menu/creation', { ...menuFields, name: '报表', path: '/report', element: 'report/daily', icon: 'BarChartOutlined', isAuth: 0 }, admin);
      expect(created).toMatchObject({ code: 200, data: { pid: null, name: '报表', element: 'report/daily', isAuth: 0, version: 0 } });
      const before = await rowCount(ctx(), 'sysMenu');
      expect(await ctx().call('/sys/menu/creation', { ...menuFields, pid: 999999 }, admin)).toMatchObject({ code: 404, msg: '上级菜单不存在' });
      expect(await ctx().call('/sys/menu/creation', { ...menuFields, path: 'report' }, admin)).toMatchObject({ code: 400, msg: '路由路径格式不正确：应形如 /sys/user' });
      expect(await ctx().call('/sys/menu/creation', { ...menuFields, element: '<img>' }, admin)).toMatchObject({ code: 400, msg: '视图格式不正确：应形如 sys/user' });
      expect(await ctx().call('/sys/menu/creation', { ...menuFields, isAuth: 2 }, admin)).toMatchObject({ code: 400, msg: '是否需要授权不能大于 1' });
      expect(await ctx().call('/sys/menu/creation', { ...menuFields, name: '' }, admin)).toMatchObject({ code: 400, msg: '菜单名称不能为空' });
      expect(await rowCount(ctx(), 'sysMenu')).toBe(before);
    });

    it('edits a menu; refuses cycles, unknown ids and stale versions', async () => {
      const top = expectOk(await ctx().call('/sys/menu/creation', { ...menuFields, name: '顶层' }, admin));
      const child = expectOk(await ctx().call('/sys/menu/creation', { ...menuFields, pid: top.id, name: '子级' }, admin));
      const grandchild = expectOk(await ctx().call('/sys/menu/creation', { ...menuFields, pid: child.id, name: '孙级' }, admin));
      const edit = (menu: typeof top, fields: Record<string, unknown>) =>
        ctx().call(
          '/sys/menu/edit',
          {
            id: menu.id,
            pid: menu.pid,
            name: menu.name,
            path: menu.path,
            element: menu.element,
            icon: menu.icon,
            sort: menu.sort,
            state: menu.state,
            isAuth: menu.isAuth,
            version: menu.version,
            ...fields,
          },
          admin,
        );

      const cycle = '上级菜单不能是当前菜单或它的下级菜单';
      expect(await edit(top, { pid: top.id })).toMatchObject({ code: 400, msg: cycle });
      expect(await edit(top, { pid: grandchild.id })).toMatchObject({ code: 400, msg: cycle });
      expect(await edit(top, { pid: 999999 })).toMatchObject({ code: 404, msg: '上级菜单不存在' });
      expect(await edit({ ...top, id: 999999 }, {})).toMatchObject({ code: 404, msg: '菜单不存在' });

      const moved = expectOk(await edit(grandchild, { pid: top.id, name: '改为子级', isAuth: 0, state: 0 }));
      expect(moved).toMatchObject({ pid: top.id, name: '改为子级', isAuth: 0, state: 0, version: grandchild.version + 1 });
      expect(await edit(grandchild, { name: '旧版本' })).toMatchObject({ code: 409, msg: '数据已被他人修改，请刷新后重试' });
      expect(expectOk(await edit(top, { pid: null, sort: 9 }))).toMatchObject({ sort: 9 });
    });
  });

  describe('resources', () => {
    let userMenu: number;
    beforeAll(async () => {
      userMenu = await menuId(ctx(), '/sys/user');
    });

    it('pages a menu’s resources with name and type filters', async () => {
      const page = expectOk(await ctx().call('/sys/resource/menu/inquire', { size: 20, current: 1, params: { menuId: userMenu } }, admin));
      expect(page.total).toBe(12);
      expect(page.records.every((r) => r.menuId === userMenu)).toBe(true);
      const fields = expectOk(await ctx().call('/sys/resource/menu/inquire', { size: 20, current: 1, params: { menuId: userMenu, type: 'field' } }, admin));
      expect(fields.records.map((r) => r.type)).toEqual(['field_state']);
      const named = expectOk(await ctx().call('/sys/resource/menu/inquire', { size: 20, current: 1, params: { menuId: userMenu, name: '重置' } }, admin));
      expect(named.records.map((r) => r.path)).toEqual(['/sys/user/password/reset']);
      const past = expectOk(await ctx().call('/sys/resource/menu/inquire', { size: 5, current: 4, params: { menuId: userMenu } }, admin));
      expect(past).toEqual({ records: [], current: 4, size: 5, total: 12, totalIsLowerBound: false });
    });

    it('refuses a missing or unknown menu id and paging out of bounds', async () => {
      expect(await ctx().call('/sys/resource/menu/inquire', { size: 20, current: 1, params: {} }, admin)).toMatchObject({ code: 400, msg: '菜单不能为空' });
      expect(await ctx().call('/sys/resource/menu/inquire', { size: 20, current: 1, params: { menuId: 999999 } }, admin)).toMatchObject({ code: 404, msg: '菜单不存在' });
      expect(await ctx().call('/sys/resource/menu/inquire', { size: 101, current: 1, params: { menuId: userMenu } }, admin)).toMatchObject({
        code: 400,
        msg: '每页条数不能大于 100',
      });
      expect(await ctx().call('/sys/resource/menu/inquire', { size: 20, current: 1, params: { menuId: userMenu, path: '/' } }, admin)).toMatchObject({
        code: 400,
        msg: '不支持的字段：path',
      });
      expect(await ctx().call('/sys/resource/inquire', { menuId: 999999 }, admin)).toMatchObject({ code: 404, msg: '菜单不存在' });
    });

    it('lists all resources of a menu', async () => {
      const all = expectOk(await ctx().call('/sys/resource/inquire', { menuId: userMenu }, admin));
      expect(all.map((r) => r.type)).toEqual([
        'api_inquire',
        'api_creation',
        'api_edit',
        'api_batchState',
        'api_detail',
        'api_passwordReset',
        'api_export',
        'api_import',
        'api_importTemplate',
        'api_roleChoices',
        'api_orgTree',
        'field_state',
      ]);
    });

    it('creates resources under the type and path rules, refusing clashes without writing', async () => {
      const created = await ctx().call('/sys/resource/creation', { ...resourceFields, menuId: userMenu }, admin);
      expect(created).toMatchObject({ code: 200, data: { menuId: userMenu, type: 'button_export', path: '', version: 0 } });
      const before = await rowCount(ctx(), 'sysResource');
      const create = (fields: Record<string, unknown>) => ctx().call('/sys/resource/creation', { ...resourceFields, menuId: userMenu, ...fields }, admin);
      expect(await create({})).toMatchObject({ code: 409, msg: '该菜单下已有类型为 button_export 的资源' });
      expect(await create({ type: 'api_other', path: '/sys/user/inquire' })).toMatchObject({ code: 409, msg: '接口路径 /sys/user/inquire 已被其他资源使用' });
      expect(await create({ type: 'api_other' })).toMatchObject({ code: 400, msg: '接口资源必须填写接口路径' });
      expect(await create({ type: 'field_level', path: '/sys/user/level' })).toMatchObject({ code: 400, msg: '只有接口资源（api_）可以填写接口路径' });
      expect(await create({ type: 'export' })).toMatchObject({ code: 400, msg: expect.stringContaining('资源类型格式不正确') as string });
      expect(await create({ type: 'api_drop', path: "/sys/user'; drop table sys_user" })).toMatchObject({
        code: 400,
        msg: expect.stringContaining('接口路径格式不正确') as string,
      });
      expect(await create({ menuId: 999999, type: 'button_other' })).toMatchObject({ code: 404, msg: '菜单不存在' });
      expect(await rowCount(ctx(), 'sysResource')).toBe(before);
    });

    it('edits a resource with its version', async () => {
      const resource = expectOk(await ctx().call('/sys/resource/creation', { ...resourceFields, menuId: userMenu, type: 'button_print', name: '打印' }, admin));
      const edit = (fields: Record<string, unknown>) =>
        ctx().call('/sys/resource/edit', { id: resource.id, name: resource.name, type: resource.type, path: '', remark: '', version: resource.version, ...fields }, admin);
      const edited = expectOk(await edit({ name: '打印名单', remark: '打印当前页' }));
      expect(edited).toMatchObject({ name: '打印名单', remark: '打印当前页', version: resource.version + 1 });
      expect(await edit({ name: '旧' })).toMatchObject({ code: 409, msg: '数据已被他人修改，请刷新后重试' });
      expect(await edit({ type: 'button_export', version: edited.version })).toMatchObject({ code: 409, msg: '该菜单下已有类型为 button_export 的资源' });
      expect(await edit({ id: 999999 })).toMatchObject({ code: 404, msg: '资源不存在' });
      expect(expectOk(await ctx().call('/sys/resource/inquire', { menuId: userMenu }, admin)).find((r) => r.id === resource.id)).toEqual(edited);
    });

    it('lets only the built-in role set or move an API path', async () => {
      const op = await signedInOperator(ctx(), admin, 'menu.keeper', await menuGrants(ctx(), '/sys/menu'));
      const inquire = expectOk(await ctx().call('/sys/resource/inquire', { menuId: userMenu }, op.token)).find((r) => r.type === 'api_inquire')!;
      expect(
        await ctx().call(
          '/sys/resource/edit',
          { id: inquire.id, name: inquire.name, type: inquire.type, path: '/sys/user/anything', remark: '', version: inquire.version },
          op.token,
        ),
      ).toMatchObject({ code: 403 });
      expect(await ctx().call('/sys/resource/creation', { ...resourceFields, menuId: userMenu, type: 'api_extra', path: '/sys/user/extra' }, op.token)).toMatchObject({
        code: 403,
      });
      const renamed = await ctx().call(
        '/sys/resource/edit',
        { id: inquire.id, name: '查询全部用户', type: inquire.type, path: inquire.path, remark: '', version: inquire.version },
        op.token,
      );
      expect(renamed).toMatchObject({ code: 200, data: { name: '查询全部用户', path: '/sys/user/inquire' } });
    });
  });
});
