/**
 * The built-in catalogue sync: new installs get everything once; an upgraded database gets only
 * what a newer version adds; what an operator changed is never added back; a database seeded before
 * markers existed adopts what it holds; a built-in whose path a migration renamed keeps its grants
 * and is not added twice.
 */
import type { Kysely } from 'kysely';
import { describeOnEachDatabase } from './support/harness';
import { expectOk, menuGrants, menuId, resourceId, signedInOperator } from './support/sys-fixtures';
import { auditIntegrityPaths } from '../../src/server/db/migrations/019_audit_integrity_paths';
import { builtinCatalog, syncBuiltins, type BuiltinCatalog } from '../../src/server/services/builtins/sync';
import type { SeedArea } from '../../src/server/services/builtins/catalogue';

const extraArea: SeedArea = {
  name: '测试新区',
  path: '/zz',
  icon: 'SettingOutlined',
  children: [
    {
      name: '新页面',
      path: '/zz/page',
      element: 'zz/page',
      icon: 'SettingOutlined',
      resources: [{ name: '新接口', type: 'api_inquire', path: '/zz/page/inquire' }],
      fields: { state: 'zz_state' },
    },
  ],
};
const upgraded: BuiltinCatalog = {
  areas: [...builtinCatalog.areas, extraArea],
  dictionaries: {
    ...builtinCatalog.dictionaries,
    zz_state: [
      { label: '开', value: '1' },
      { label: '关', value: '0' },
    ],
  },
  schedules: [...builtinCatalog.schedules, { name: '测试任务', cron: '0 5 * * *', task: 'session.purgeExpired', params: {}, remark: '' }],
};

describeOnEachDatabase('built-in catalogue', (ctx) => {
  const db = () => ctx().database.db;
  const count = async (table: 'sysMenu' | 'sysResource' | 'sysDict' | 'sysSchedule' | 'sysDictResource') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const totals = async () => ({
    menus: await count('sysMenu'),
    resources: await count('sysResource'),
    dicts: await count('sysDict'),
    schedules: await count('sysSchedule'),
    bindings: await count('sysDictResource'),
  });

  it('a seeded database has every built-in marked: syncing again adds nothing', async () => {
    const before = await totals();
    expect(await syncBuiltins(db())).toBe(0);
    expect(await totals()).toEqual(before);
  });

  it('an upgrade adds only the new built-ins, with their field dictionaries bound', async () => {
    const before = await totals();
    const added = await syncBuiltins(db(), upgraded);
    // area + menu + api resource + field resource + 2 dictionary entries + schedule
    expect(added).toBe(7);
    expect(await totals()).toEqual({
      menus: before.menus + 2,
      resources: before.resources + 2,
      dicts: before.dicts + 2,
      schedules: before.schedules + 1,
      bindings: before.bindings + 2,
    });
    const page = await db().selectFrom('sysMenu').select(['pid', 'element', 'state']).where('path', '=', '/zz/page').executeTakeFirstOrThrow();
    const area = await db().selectFrom('sysMenu').select('id').where('path', '=', '/zz').executeTakeFirstOrThrow();
    expect(page).toEqual({ pid: area.id, element: 'zz/page', state: 1 });
    expect(await syncBuiltins(db(), upgraded)).toBe(0);
  });

  it('never adds back a built-in an operator changed', async () => {
    await db().updateTable('sysMenu').set({ path: '/zz/renamed' }).where('path', '=', '/zz/page').execute();
    await db().updateTable('sysSchedule').set({ name: '改名的任务' }).where('name', '=', '测试任务').execute();
    const before = await totals();
    expect(await syncBuiltins(db(), upgraded)).toBe(0);
    expect(await totals()).toEqual(before);
  });

  it('a database seeded before markers existed adopts what it holds and inserts nothing', async () => {
    // Migration 002 gave such a database an empty marker table; the start-up sync adopts.
    await db().deleteFrom('sysBuiltin').execute();
    const before = await totals();
    const adopted = await syncBuiltins(db(), builtinCatalog);
    expect(adopted).toBeGreaterThan(20);
    expect(await totals()).toEqual(before);
    expect(await syncBuiltins(db(), builtinCatalog)).toBe(0);
    expect(await totals()).toEqual(before);
  });

  it('gives a resource a screen gains on upgrade to the roles holding its list, so what they did keeps working', async () => {
    const admin = await ctx().login();
    const choices = '/sys/user/role/choices';
    // The database as the version before it left it: no such resource, no marker.
    const old = await resourceId(ctx(), choices);
    await db().deleteFrom('sysRoleAuth').where('type', '=', 'resource').where('resource', '=', old).execute();
    await db().deleteFrom('sysResource').where('id', '=', old).execute();
    await db().deleteFrom('sysBuiltin').where('key', '=', 'resource:/sys/user:api_roleChoices').execute();
    const userList = [
      { type: 'menu' as const, resource: await menuId(ctx(), '/sys/user') },
      { type: 'resource' as const, resource: await resourceId(ctx(), '/sys/user/inquire') },
    ];
    const holder = await signedInOperator(ctx(), admin, 'userlister', userList);
    const other = await signedInOperator(ctx(), admin, 'deviceonly', await menuGrants(ctx(), '/hotel/device'));

    expect(await syncBuiltins(db())).toBe(1);
    const added = await resourceId(ctx(), choices);
    const holders = await db().selectFrom('sysRoleAuth').select('roleId').where('type', '=', 'resource').where('resource', '=', added).execute();
    expect(holders.map((row) => row.roleId)).toEqual([holder.role.id]);
    expect((await ctx().call(choices, null, holder.token)).code).toBe(200);
    expect((await ctx().call(choices, null, other.token)).code).toBe(403);
    expect(await syncBuiltins(db())).toBe(0);
  });

  it('keeps the grants of the chain checks renamed from verify to integrity, and adds no second resource (migration 019)', async () => {
    const admin = await ctx().login();
    const paths = { operation: '/monitor/operation', login: '/monitor/login' };
    const ids = { operation: await resourceId(ctx(), `${paths.operation}/integrity`), login: await resourceId(ctx(), `${paths.login}/integrity`) };
    const { token } = await signedInOperator(ctx(), admin, 'chain-checker', [{ type: 'resource', resource: ids.operation }]);
    // The database as a version before the rename left it: the old paths, types and marker keys.
    for (const [name, menu] of Object.entries(paths)) {
      await db()
        .updateTable('sysResource')
        .set({ path: `${menu}/verify`, type: 'api_verify' })
        .where('id', '=', ids[name as keyof typeof ids])
        .execute();
      await db()
        .updateTable('sysBuiltin')
        .set({ key: `resource:${menu}:api_verify` })
        .where('key', '=', `resource:${menu}:api_integrity`)
        .execute();
    }
    const before = await totals();

    await auditIntegrityPaths.up(db() as unknown as Kysely<unknown>);
    expect(await syncBuiltins(db())).toBe(0);
    expect(await totals()).toEqual(before);
    const renamed = await db()
      .selectFrom('sysResource')
      .select(['id', 'path', 'type'])
      .where('path', 'like', '/monitor/%/%')
      .where('type', 'in', ['api_verify', 'api_integrity'])
      .orderBy('id')
      .execute();
    expect(renamed).toEqual([
      { id: ids.operation, path: '/monitor/operation/integrity', type: 'api_integrity' },
      { id: ids.login, path: '/monitor/login/integrity', type: 'api_integrity' },
    ]);
    expect(expectOk(await ctx().call('/monitor/operation/integrity', null, token)).ok).toBe(true);
    expect((await ctx().call('/monitor/login/integrity', null, token)).code).toBe(403);
  });
});
