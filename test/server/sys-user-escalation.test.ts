/**
 * Issue 8, point 4: no one acts on a user richer than themselves. An operator holding only the
 * user screen once reset the password of a user whose role held more, signed in as them and took
 * their grants. Reset, edit, disable and moving between roles all follow the rule role
 * assignment already followed.
 */
import { describeOnEachDatabase } from './support/harness';
import { USER_PASSWORD, createRole, createUser, expectOk, menuGrants, signedInOperator } from './support/sys-fixtures';

const REFUSED = { code: 403, msg: '不能管理权限超出自己角色的用户', data: null };

describeOnEachDatabase('acting on a richer user', (ctx) => {
  let admin: string;
  let operator: Awaited<ReturnType<typeof signedInOperator>>;
  let richer: Awaited<ReturnType<typeof createUser>>;
  let poorer: Awaited<ReturnType<typeof createUser>>;
  let peer: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    admin = await ctx().login();
    const userScreen = await menuGrants(ctx(), '/sys/user');
    operator = await signedInOperator(ctx(), admin, 'usermanager', userScreen);
    const richerRole = await createRole(ctx(), admin, '用户与设备', [...userScreen, ...(await menuGrants(ctx(), '/hotel/device'))]);
    const poorerRole = await createRole(ctx(), admin, '只看用户', userScreen.slice(0, 2));
    richer = await createUser(ctx(), admin, 'richer1', richerRole.id);
    poorer = await createUser(ctx(), admin, 'poorer1', poorerRole.id);
    peer = await createUser(ctx(), admin, 'peer1', operator.role.id);
  });

  it('cannot reset a richer user’s password, so cannot sign in as them', async () => {
    expect(await ctx().call('/sys/user/password/reset', { id: richer.id, password: 'Taken-Over-Castle-9' }, operator.token)).toEqual(REFUSED);
    await expect(ctx().login('richer1', 'Taken-Over-Castle-9')).rejects.toThrow(/用户名或密码错误/);
    await expect(ctx().login('richer1', USER_PASSWORD)).resolves.toEqual(expect.any(String));
  });

  it('cannot edit or disable a richer user, and nothing is written', async () => {
    const edit = (fields: Record<string, unknown>) =>
      ctx().call('/sys/user/edit', { id: richer.id, nickName: richer.nickName, state: 1, roleId: richer.roleId, version: richer.version, ...fields }, operator.token);
    expect(await edit({ nickName: '被篡改' })).toEqual(REFUSED);
    expect(await edit({ state: 0 })).toEqual(REFUSED);
    expect(await edit({ roleId: operator.role.id })).toEqual(REFUSED);
    expect(expectOk(await ctx().call('/sys/user/detail', { id: richer.id }, admin))).toEqual(richer);
  });

  it('still manages users whose role holds no more than their own', async () => {
    expect((await ctx().call('/sys/user/password/reset', { id: poorer.id, password: 'Fresh-Harbour-Lamp-3' }, operator.token)).code).toBe(200);
    const reset = expectOk(await ctx().call('/sys/user/detail', { id: poorer.id }, admin));
    expect((await ctx().call('/sys/user/edit', { id: poorer.id, nickName: '改名', state: 0, roleId: poorer.roleId, version: reset.version }, operator.token)).code).toBe(200);
    expect((await ctx().call('/sys/user/edit', { id: peer.id, nickName: '同组', state: 1, roleId: peer.roleId, version: peer.version }, operator.token)).code).toBe(200);
    const roleless = await createUser(ctx(), admin, 'roleless1', null);
    expect((await ctx().call('/sys/user/password/reset', { id: roleless.id, password: 'Fresh-Harbour-Lamp-3' }, operator.token)).code).toBe(200);
  });

  it('refuses the built-in administrator to everyone but a built-in operator', async () => {
    const adminUser = expectOk(await ctx().call('/sys/user/inquire', { size: 1, current: 1, params: { userName: 'admin' } }, admin)).records[0];
    expect(await ctx().call('/sys/user/password/reset', { id: adminUser.id, password: 'Taken-Over-Castle-9' }, operator.token)).toMatchObject({ code: 403 });
  });

  it('applies the same rule when a role holding both screens moves a richer user out of their role', async () => {
    const roleScreen = await menuGrants(ctx(), '/sys/role');
    const both = await signedInOperator(ctx(), admin, 'rolemover', [...roleScreen, ...(await menuGrants(ctx(), '/sys/user'))]);
    const target = await createUser(ctx(), admin, 'richer2', richer.roleId);
    expect(await ctx().call('/sys/role/unbind/user', { userId: target.id, roleId: richer.roleId! }, both.token)).toEqual(REFUSED);
    expect(await ctx().call('/sys/role/bind/user', { userId: target.id, roleId: both.role.id }, both.token)).toEqual(REFUSED);
    expect(expectOk(await ctx().call('/sys/user/detail', { id: target.id }, admin)).roleId).toBe(richer.roleId);
  });
});
