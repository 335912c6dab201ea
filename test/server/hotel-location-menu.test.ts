/**
 * Migrations 012 and 034: 位置管理 reaches a database seeded before it (012), then gets the location
 * tree as its own list while 设备管理 keeps a picker of its own (034), grants following what each
 * role could do; the start-up sync then adds nothing twice.
 */
import { dialects } from './support/harness';
import { migrateUpTo, onThrowawayDatabase } from './support/migrations';
import { builtinCatalog, syncBuiltins, type BuiltinCatalog } from '../../src/server/services/builtins/sync';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';

type Menus = BuiltinCatalog['areas'][number]['children'];
const withMenus = (edit: (menus: Menus) => Menus): BuiltinCatalog => ({
  ...builtinCatalog,
  areas: builtinCatalog.areas.map((area) => ({ ...area, children: edit(area.children) })),
});
const DEVICE_TREE_BEFORE_034 = { name: '查询位置', type: 'api_locationTree', path: '/hotel/location/tree' };

/** The catalogue as shipped before 034: the tree is 设备管理's 查询位置; 位置管理 has no list of its own. */
function catalogBefore034(): BuiltinCatalog {
  return withMenus((menus) =>
    menus.map((menu) => {
      if (menu.path === '/hotel/device') return { ...menu, resources: menu.resources.map((r) => (r.type === 'api_locationTree' ? DEVICE_TREE_BEFORE_034 : r)) };
      if (menu.path === '/hotel/location') return { ...menu, resources: menu.resources.filter((r) => r.type !== 'api_inquire' && r.type !== 'api_orgTree') };
      return menu;
    }),
  );
}

/** The catalogue as shipped before 012: the location resources (008) under 设备管理, no 位置管理. */
function catalogBefore012(): BuiltinCatalog {
  return withMenus((menus) =>
    catalogBefore034()
      .areas.flatMap((area) => area.children)
      .filter((menu) => menus.some((own) => own.path === menu.path) && menu.path !== '/hotel/location')
      .map((menu) =>
        menu.path !== '/hotel/device'
          ? menu
          : {
              ...menu,
              resources: [
                ...menu.resources,
                { name: '新增位置', type: 'api_locationCreation', path: '/hotel/location/creation' },
                { name: '编辑位置', type: 'api_locationEdit', path: '/hotel/location/edit' },
                { name: '批量新增房间', type: 'api_roomBulkCreation', path: '/hotel/location/rooms/creation' },
              ],
            },
      ),
  );
}

/** The resource paths a start-up sync adds to `db`, in the order it adds them. */
async function pathsAddedBySync(db: Kysely<Database>): Promise<string[]> {
  const paths = async () => (await db.selectFrom('sysResource').select('path').orderBy('id').execute()).map((r) => r.path);
  const before = await paths();
  await syncBuiltins(db);
  return (await paths()).filter((path) => !before.includes(path));
}

describe('migration 012 adds 位置管理 to an existing database', () => {
  for (const dialect of dialects()) {
    it(`[${dialect}] creates the menu, moves the location resources with their grants and adds 删除位置`, async () => {
      await onThrowawayDatabase<Database>(dialect, async (db) => {
        expect(await migrateUpTo(db, dialect, '012')).toBeUndefined();
        await syncBuiltins(db, catalogBefore012());
        const now = Date.now();
        const role = await db
          .insertInto('sysRole')
          .values({ name: '前台', remark: '', state: 1, builtin: 0, createdAt: now, updatedAt: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        const creation = await db.selectFrom('sysResource').select('id').where('path', '=', '/hotel/location/creation').executeTakeFirstOrThrow();
        await db.insertInto('sysRoleAuth').values({ roleId: role.id, type: 'resource', resource: creation.id }).execute();

        expect(await migrateUpTo(db, dialect)).toBeUndefined();

        const hotel = await db.selectFrom('sysMenu').select('id').where('pid', 'is', null).where('path', '=', '/hotel').executeTakeFirstOrThrow();
        const menu = await db.selectFrom('sysMenu').selectAll().where('path', '=', '/hotel/location').executeTakeFirstOrThrow();
        expect(menu).toMatchObject({ pid: hotel.id, name: '位置管理', element: 'hotel/location', state: 1 });
        const resources = await db.selectFrom('sysResource').select(['id', 'menuId', 'type', 'path']).where('path', 'like', '/hotel/location/%').orderBy('path').execute();
        const device = await db.selectFrom('sysMenu').select('id').where('path', '=', '/hotel/device').executeTakeFirstOrThrow();
        expect(resources.map(({ menuId, type, path }) => ({ menuId, type, path }))).toEqual([
          { menuId: menu.id, type: 'api_creation', path: '/hotel/location/creation' },
          { menuId: menu.id, type: 'api_edit', path: '/hotel/location/edit' },
          { menuId: menu.id, type: 'api_removal', path: '/hotel/location/removal' },
          { menuId: menu.id, type: 'api_roomBulkCreation', path: '/hotel/location/rooms/creation' },
          // 034: the tree is 位置管理's list now.
          { menuId: menu.id, type: 'api_inquire', path: '/hotel/location/tree' },
        ]);
        expect(await db.selectFrom('sysResource').select(['menuId', 'type']).where('path', '=', '/hotel/device/location/tree').executeTakeFirst()).toEqual({
          menuId: device.id,
          type: 'api_locationTree',
        });
        // The grant names the resource, so the role keeps 新增位置 where it now lives.
        expect(resources.find((r) => r.path === '/hotel/location/creation')?.id).toBe(creation.id);

        // The next start's sync adopts what the migration made: nothing is added twice; it adds
        // only what the screen gained after 012 (可选单位, the building form's hotel picker).
        const menus = (await db.selectFrom('sysMenu').select('id').execute()).length;
        const resourceCount = (await db.selectFrom('sysResource').select('id').execute()).length;
        expect(await pathsAddedBySync(db)).toEqual(['/hotel/location/org/tree']);
        expect((await db.selectFrom('sysMenu').select('id').execute()).length).toBe(menus);
        expect((await db.selectFrom('sysResource').select('id').execute()).length).toBe(resourceCount + 1);
      });
    }, 30_000);
  }

  it('leaves an empty database to the start-up seed', async () => {
    await onThrowawayDatabase<Database>('sqlite', async (db) => {
      expect(await migrateUpTo(db, 'sqlite')).toBeUndefined();
      expect(await db.selectFrom('sysMenu').select('id').execute()).toEqual([]);
      await syncBuiltins(db);
      const menu = await db.selectFrom('sysMenu').select('id').where('path', '=', '/hotel/location').executeTakeFirstOrThrow();
      const resources = await db.selectFrom('sysResource').select('type').where('menuId', '=', menu.id).orderBy('type').execute();
      expect(resources.map((r) => r.type)).toEqual(['api_creation', 'api_edit', 'api_inquire', 'api_orgTree', 'api_removal', 'api_roomBulkCreation']);
    });
  }, 30_000);
});

describe('migration 034 gives 位置管理 the tree as its list', () => {
  for (const dialect of dialects()) {
    it(`[${dialect}] moves the tree to 位置管理 for the roles that saw both, and leaves 设备管理 its picker with its grants`, async () => {
      await onThrowawayDatabase<Database>(dialect, async (db) => {
        expect(await migrateUpTo(db, dialect, '034')).toBeUndefined();
        await syncBuiltins(db, catalogBefore034());
        const now = Date.now();
        const role = async (name: string) =>
          (await db.insertInto('sysRole').values({ name, remark: '', state: 1, builtin: 0, createdAt: now, updatedAt: now }).returning('id').executeTakeFirstOrThrow()).id;
        const grant = (roleId: number, type: 'menu' | 'resource', resource: number) => db.insertInto('sysRoleAuth').values({ roleId, type, resource }).execute();
        const menuOf = async (path: string) => (await db.selectFrom('sysMenu').select('id').where('path', '=', path).executeTakeFirstOrThrow()).id;
        const tree = await db.selectFrom('sysResource').select(['id', 'menuId']).where('path', '=', '/hotel/location/tree').executeTakeFirstOrThrow();
        expect(tree.menuId).toBe(await menuOf('/hotel/device'));
        // 位置管理 with the tree; the tree for the device screen only; 位置管理 without the tree.
        const keeper = await role('位置维护');
        const deviceOnly = await role('设备值班');
        const blind = await role('只有菜单');
        for (const roleId of [keeper, deviceOnly]) await grant(roleId, 'resource', tree.id);
        for (const roleId of [keeper, blind]) await grant(roleId, 'menu', await menuOf('/hotel/location'));

        expect(await migrateUpTo(db, dialect)).toBeUndefined();

        const picker = await db.selectFrom('sysResource').selectAll().where('id', '=', tree.id).executeTakeFirstOrThrow();
        expect(picker).toMatchObject({ menuId: await menuOf('/hotel/device'), type: 'api_locationTree', name: '可选位置', path: '/hotel/device/location/tree' });
        const list = await db.selectFrom('sysResource').selectAll().where('path', '=', '/hotel/location/tree').executeTakeFirstOrThrow();
        expect(list).toMatchObject({ menuId: await menuOf('/hotel/location'), type: 'api_inquire', name: '查询位置' });
        const holders = async (resource: number) =>
          (await db.selectFrom('sysRoleAuth').select('roleId').where('type', '=', 'resource').where('resource', '=', resource).orderBy('roleId').execute()).map(
            (row) => row.roleId,
          );
        expect(await holders(picker.id)).toEqual([keeper, deviceOnly].sort((a, b) => a - b));
        expect(await holders(list.id)).toEqual([keeper]);

        // The start-up sync adopts both rows and adds only what came after 034 (位置管理's hotel picker).
        expect(await pathsAddedBySync(db)).toEqual(['/hotel/location/org/tree']);
      });
    }, 30_000);
  }
});
