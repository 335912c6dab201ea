/**
 * Issue 8, point 8: disabling a role ends its users' sessions, as disabling a user does. Before,
 * session-level calls (authority, menu dictionary) kept answering for them.
 */
import { describeOnEachDatabase } from './support/harness';
import { USER_PASSWORD, expectOk, menuGrants, menuId, signedInOperator } from './support/sys-fixtures';

describeOnEachDatabase('disabling a role', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });

  it('revokes the sessions of its users; re-enabling does not revive them', async () => {
    const { role, token } = await signedInOperator(ctx(), admin, 'nightshift', await menuGrants(ctx(), '/hotel/device'));
    const other = await ctx().login('nightshift', USER_PASSWORD);
    const deviceMenu = await menuId(ctx(), '/hotel/device');
    expect((await ctx().call('/sys/dict/resource/inquire', { menuId: deviceMenu }, token)).code).toBe(200);

    const disabled = expectOk(await ctx().call('/sys/role/edit', { id: role.id, name: role.name, remark: '', state: 0, version: role.version }, admin));
    for (const session of [token, other]) {
      expect((await ctx().call('GET /sys/menu/authority', null, session)).code).toBe(401);
      expect((await ctx().call('/sys/dict/resource/inquire', { menuId: deviceMenu }, session)).code).toBe(401);
      expect((await ctx().call('/hotel/device/inquire', { size: 20, current: 1 }, session)).code).toBe(401);
    }
    const live = await ctx()
      .database.db.selectFrom('sysSession as s')
      .innerJoin('sysUser as u', 'u.id', 's.userId')
      .select('s.id')
      .where('u.roleId', '=', role.id)
      .where('s.revokedAt', 'is', null)
      .execute();
    expect(live).toEqual([]);

    expectOk(await ctx().call('/sys/role/edit', { id: role.id, name: role.name, remark: '', state: 1, version: disabled.version }, admin));
    expect((await ctx().call('GET /sys/menu/authority', null, token)).code).toBe(401);
    const fresh = await ctx().login('nightshift', USER_PASSWORD);
    expect((await ctx().call('GET /sys/menu/authority', null, fresh)).code).toBe(200);
  });

  it('a session whose role was disabled behind the API’s back is refused too', async () => {
    const { role, token } = await signedInOperator(ctx(), admin, 'dayshift', await menuGrants(ctx(), '/hotel/device'));
    await ctx().database.db.updateTable('sysRole').set({ state: 0 }).where('id', '=', role.id).execute();
    expect((await ctx().call('GET /sys/menu/authority', null, token)).code).toBe(401);
  });
});
