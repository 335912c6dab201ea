import { describeOnEachDatabase } from './support/harness';

describeOnEachDatabase('smoke', (ctx) => {
  it('signs in as admin and reads the authorised menu', async () => {
    const token = await ctx().login();
    const menu = await ctx().call('GET /sys/menu/authority', null, token);
    expect(menu.code).toBe(200);
    expect(menu.data.map((m) => m.name)).toContain('设备管理');
    const panel = await ctx().call('/sys/panel/inquire', {}, token);
    expect(panel).toMatchObject({ code: 200, data: { users: 1, roles: 1 } });
  });
});
