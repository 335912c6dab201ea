/**
 * The screens' pickers (contract/pickers.ts). A role granted 通知规则 alone once opened its form on
 * refused reads of 组织管理's tree, 设备管理's locations and 通知渠道's list, and got empty pickers;
 * each screen now reads what it picks from at a path of its own, granted as one of its resources.
 * Here: every picker is refused without its resource and answered with it, a screen's pickers work
 * with nothing of the owning screens granted, a channel choice carries no configuration, and an
 * upgrade gives each picker to the roles that already worked in its screen.
 */
import { describeOnEachDatabase } from './support/harness';
import { expectOk, menuGrants, menuId, resourceId, signedInOperator } from './support/sys-fixtures';
import { PICKERS, type PickerKey } from '../../src/contract/pickers';
import { builtinCatalog, syncBuiltins } from '../../src/server/services/builtins/sync';

const REFUSED = { code: 403, msg: '没有权限执行该操作', data: null };
const PICKER_KEYS = Object.keys(PICKERS) as PickerKey[];
const pathOf = (key: PickerKey) => key.replace(/^GET /, '');
/** The screen (menu path) whose resource guards a picker: its path less the last two segments. */
const screenOf = (key: PickerKey) => pathOf(key).split('/').slice(0, -2).join('/');
const seedOf = (key: PickerKey) => {
  const menu = builtinCatalog.areas.flatMap((area) => area.children).find((candidate) => candidate.path === screenOf(key))!;
  return { menu, resource: menu.resources.find((resource) => resource.path === pathOf(key))! };
};

describeOnEachDatabase('the screens’ pickers', (ctx) => {
  let admin: string;
  const db = () => ctx().database.db;

  beforeAll(async () => {
    admin = await ctx().login();
  });

  it('seeds each picker as a resource of its own screen, given with the screen’s list or its add', () => {
    for (const key of PICKER_KEYS) {
      const { menu, resource } = seedOf(key);
      expect({ key, menu: menu.path, type: resource?.type }).toEqual({ key, menu: screenOf(key), type: expect.stringMatching(/^api_(orgTree|locationTree|channelChoices)$/) });
      expect(menu.resources.some((sibling) => sibling.type === resource.grantedWith)).toBe(true);
    }
  });

  it('refuses every picker to a role holding the rest of its screen, and answers it with the picker granted', async () => {
    const answers = [];
    for (const key of PICKER_KEYS) {
      const all = await menuGrants(ctx(), screenOf(key));
      const picker = await resourceId(ctx(), pathOf(key));
      const name = `pk${PICKER_KEYS.indexOf(key)}`;
      const without = await signedInOperator(
        ctx(),
        admin,
        `${name}-no`,
        all.filter((grant) => grant.type !== 'resource' || grant.resource !== picker),
      );
      const holder = await signedInOperator(ctx(), admin, name, all);
      answers.push({ key, without: await ctx().call(key, null, without.token), holder: (await ctx().call(key, null, holder.token)).code });
    }
    expect(answers).toEqual(PICKER_KEYS.map((key) => ({ key, without: REFUSED, holder: 200 })));
  });

  it('gives 通知规则 alone its units, locations and channels, the owning screens’ reads staying refused', async () => {
    const now = Date.now();
    await db()
      .insertInto('notifyChannel')
      .values({ name: '工程部群', type: 'webhook', config: JSON.stringify({ url: 'https://hooks.example/secret-token' }), state: 1, remark: '', createdAt: now, updatedAt: now })
      .execute();
    const building = expectOk(await ctx().call('/hotel/location/creation', { parentId: 0, kind: 'building', name: '规则楼', sort: 0 }, admin));
    const ruleOnly = await signedInOperator(ctx(), admin, 'rule-only', await menuGrants(ctx(), '/monitor/rule'));

    expect(await ctx().call('GET /sys/org/tree', null, ruleOnly.token)).toEqual(REFUSED);
    expect(await ctx().call('GET /hotel/location/tree', null, ruleOnly.token)).toEqual(REFUSED);
    expect(await ctx().call('/monitor/channel/inquire', { size: 10, current: 1, params: {} }, ruleOnly.token)).toEqual(REFUSED);

    // What the owners answer a caller of the same (whole-group) scope.
    expect(expectOk(await ctx().call('GET /monitor/rule/org/tree', null, ruleOnly.token))).toEqual(expectOk(await ctx().call('GET /sys/org/tree', null, admin)));
    const locations = expectOk(await ctx().call('GET /monitor/rule/location/tree', null, ruleOnly.token));
    expect(locations).toEqual(expectOk(await ctx().call('GET /hotel/location/tree', null, admin)));
    expect(locations.map((location) => location.id)).toContain(building.id);
    const channels = expectOk(await ctx().call('GET /monitor/rule/channel/choices', null, ruleOnly.token));
    const listed = expectOk(await ctx().call('/monitor/channel/inquire', { size: 100, current: 1, params: {} }, admin)).records;
    expect(channels).toEqual(listed.map(({ id, name, type, state }) => ({ id, name, type, state })).sort((a, b) => a.id - b.id));
    expect(channels.map((channel) => channel.name)).toContain('工程部群');
    // A choice names a channel; where it sends (and its secrets) stays with 通知渠道.
    expect(JSON.stringify(channels)).not.toContain('secret-token');
  });

  it('gives each picker, on upgrade, to the roles holding its screen’s list (位置管理: its add)', async () => {
    const holdersOf = async (path: string) =>
      (
        await db()
          .selectFrom('sysRoleAuth')
          .select('roleId')
          .where('type', '=', 'resource')
          .where('resource', '=', await resourceId(ctx(), path))
          .execute()
      )
        .map((row) => row.roleId)
        .sort();
    const mine: Record<string, number> = {};
    const expected: Record<string, number[]> = {};
    for (const key of PICKER_KEYS) {
      const { menu, resource } = seedOf(key);
      const old = await resourceId(ctx(), pathOf(key));
      await db().deleteFrom('sysRoleAuth').where('type', '=', 'resource').where('resource', '=', old).execute();
      await db().deleteFrom('sysResource').where('id', '=', old).execute();
      await db().deleteFrom('sysBuiltin').where('key', '=', `resource:${menu.path}:${resource.type}`).execute();
      const sibling = menu.resources.find((candidate) => candidate.type === resource.grantedWith)!;
      if (mine[menu.path] === undefined) {
        const grants = [
          { type: 'menu' as const, resource: await menuId(ctx(), menu.path) },
          { type: 'resource' as const, resource: await resourceId(ctx(), sibling.path!) },
        ];
        mine[menu.path] = (await signedInOperator(ctx(), admin, `up${Object.keys(mine).length}`, grants)).role.id;
      }
      expected[key] = await holdersOf(sibling.path!);
    }
    expect(await syncBuiltins(db())).toBe(PICKER_KEYS.length);
    for (const key of PICKER_KEYS) {
      expect(expected[key]).toContain(mine[screenOf(key)]);
      expect({ key, roles: await holdersOf(pathOf(key)) }).toEqual({ key, roles: expected[key] });
    }
    expect(await syncBuiltins(db())).toBe(0);
  });
});
