/**
 * The user form's role choices (POST /sys/user/role/choices). A hotel's user manager without the
 * role screen once read them through /sys/role/inquire: refused, so the user screen opened on
 * 没有权限执行该操作 and its 角色 pickers were empty. The choices are the roles the caller could
 * give a user, by the rules a save applies: never the built-in role but by a built-in operator, no
 * grant the caller's own role lacks, no data scope wider than the caller's.
 */
import { describeOnEachDatabase } from './support/harness';
import { USER_PASSWORD, createRole, expectOk, menuGrants } from './support/sys-fixtures';
import type { DataScopeKind } from '../../src/contract/constants';

describeOnEachDatabase('the roles a user manager may give', (ctx) => {
  let admin: string;
  let manager: string;
  const roles: Record<string, number> = {};

  beforeAll(async () => {
    admin = await ctx().login();
    const tree = expectOk(await ctx().call('GET /sys/org/tree', null, admin));
    const root = tree.find((unit) => unit.pid === null)!.id;
    const unit = async (pid: number, name: string, kind: string, code: string) =>
      expectOk(await ctx().call('/sys/org/creation', { pid, name, kind, code, state: 1, sort: 0, remark: '' }, admin)).id;
    const hotel = await unit(root, '选角酒店', 'hotel', 'RC1');
    const other = await unit(root, '别家酒店', 'hotel', 'RC2');

    const userScreen = await menuGrants(ctx(), '/sys/user');
    const deviceScreen = await menuGrants(ctx(), '/hotel/device');
    const role = async (name: string, grants: typeof userScreen, dataScope: DataScopeKind, scopeOrgIds: number[] = []) => {
      const created = await createRole(ctx(), admin, name, grants);
      expectOk(await ctx().call('/sys/role/edit', { id: created.id, name, remark: '', state: 1, dataScope, scopeOrgIds, version: created.version }, admin));
      roles[name] = created.id;
      return created.id;
    };
    // The manager: the user screen only, their own hotel.
    const managerRole = await role('酒店用户管理员', userScreen, 'org');
    await role('前台-本酒店', userScreen.slice(0, 2), 'org');
    await role('前台-仅本人', userScreen.slice(0, 2), 'self');
    await role('前台-全部数据', userScreen.slice(0, 2), 'all');
    await role('前台-本单位及下级', userScreen.slice(0, 2), 'orgAndBelow');
    await role('前台-指定别家', userScreen.slice(0, 2), 'custom', [other]);
    await role('工程-本酒店', [...userScreen.slice(0, 2), ...deviceScreen], 'org');
    expectOk(
      await ctx().call('/sys/user/creation', { userName: 'rolechooser', nickName: '选角色的人', password: USER_PASSWORD, state: 1, roleId: managerRole, orgId: hotel }, admin),
    );
    manager = await ctx().login('rolechooser', USER_PASSWORD);
  });

  it('answers a scoped user manager the roles they may give, without the role screen', async () => {
    const choices = expectOk(await ctx().call('/sys/user/role/choices', null, manager));
    expect(choices.map((choice) => choice.name).sort()).toEqual(['前台-仅本人', '前台-本酒店', '酒店用户管理员'].sort());
    // Each of them is one a save accepts, for a user of the manager's hotel.
    for (const choice of choices) {
      const created = await ctx().call('/sys/user/creation', { userName: `given${choice.id}`, nickName: '新员工', password: USER_PASSWORD, state: 1, roleId: choice.id }, manager);
      expect(created.code).toBe(200);
    }
  });

  it('leaves out what a save would refuse: the built-in role, more grants, a wider scope', async () => {
    const given = (roleId: number) => ctx().call('/sys/user/creation', { userName: `refused${roleId}`, nickName: '新员工', password: USER_PASSWORD, state: 1, roleId }, manager);
    for (const name of ['前台-全部数据', '前台-本单位及下级', '前台-指定别家', '工程-本酒店']) expect((await given(roles[name])).code).toBe(403);
    const builtin = expectOk(await ctx().call('/sys/role/inquire', { size: 100, current: 1, params: {} }, admin)).records.find((role) => role.builtin === 1)!;
    expect((await given(builtin.id)).code).toBe(403);
  });

  it('answers the built-in administrator every role', async () => {
    const all = expectOk(await ctx().call('/sys/role/inquire', { size: 100, current: 1, params: {} }, admin)).records;
    const choices = expectOk(await ctx().call('/sys/user/role/choices', null, admin));
    expect(choices.map((choice) => choice.id).sort((a, b) => a - b)).toEqual(all.map((role) => role.id).sort((a, b) => a - b));
  });

  it('is granted with the user list: a role without it is refused', async () => {
    const listOnly = await createRole(ctx(), admin, '只有菜单', (await menuGrants(ctx(), '/sys/user')).slice(0, 1));
    expectOk(await ctx().call('/sys/user/creation', { userName: 'menuonly', nickName: '只有菜单', password: USER_PASSWORD, state: 1, roleId: listOnly.id }, admin));
    const token = await ctx().login('menuonly', USER_PASSWORD);
    expect(await ctx().call('/sys/user/role/choices', null, token)).toMatchObject({ code: 403 });
  });
});
