/** Migration 012: 位置管理 reaches a database seeded before it, and the start-up sync then adds nothing twice. */
import { createTestDatabase, dialects } from './support/harness';
import { migrateUpTo, openTestKysely } from './support/migrations';
import { builtinCatalog, syncBuiltins, type BuiltinCatalog } from '../../src/server/services/builtins/sync';
import type { Database } from '../../src/server/db/schema';

/** The catalogue as shipped before 012: the location resources (008) under 设备管理, no 位置管理. */
function catalogBefore012(): BuiltinCatalog {
  const areas = builtinCatalog.areas.map((area) => ({
    ...area,
    children: area.children
      .filter((menu) => menu.path !== '/hotel/location')
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
  }));
  return { ...builtinCatalog, areas };
}

describe('migration 012 adds 位置管理 to an existing database', () => {
  for (const dialect of dialects()) {
    it(`[${dialect}] creates the menu, moves the location resources with their grants and adds 删除位置`, async () => {
      const target = await createTestDatabase(dialect);
      const db = await openTestKysely<Database>(target);
      try {
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
          { menuId: device.id, type: 'api_locationTree', path: '/hotel/location/tree' },
        ]);
        // The grant names the resource, so the role keeps 新增位置 where it now lives.
        expect(resources.find((r) => r.path === '/hotel/location/creation')?.id).toBe(creation.id);

        // The next start's sync adopts what the migration made: nothing is added twice; it adds
        // only what the screen gained after 012 (可选单位, the building form's hotel picker).
        const menus = (await db.selectFrom('sysMenu').select('id').execute()).length;
        const paths = async () => (await db.selectFrom('sysResource').select('path').execute()).map((r) => r.path);
        const before = await paths();
        await syncBuiltins(db);
        expect((await db.selectFrom('sysMenu').select('id').execute()).length).toBe(menus);
        expect((await paths()).filter((path) => !before.includes(path))).toEqual(['/hotel/location/org/tree']);
        expect((await paths()).length).toBe(before.length + 1);
      } finally {
        await db.destroy();
        await target.drop();
      }
    }, 30_000);
  }

  it('leaves an empty database to the start-up seed', async () => {
    const target = await createTestDatabase('sqlite');
    const db = await openTestKysely<Database>(target);
    try {
      expect(await migrateUpTo(db, 'sqlite')).toBeUndefined();
      expect(await db.selectFrom('sysMenu').select('id').execute()).toEqual([]);
      await syncBuiltins(db);
      const menu = await db.selectFrom('sysMenu').select('id').where('path', '=', '/hotel/location').executeTakeFirstOrThrow();
      const resources = await db.selectFrom('sysResource').select('type').where('menuId', '=', menu.id).orderBy('type').execute();
      expect(resources.map((r) => r.type)).toEqual(['api_creation', 'api_edit', 'api_orgTree', 'api_removal', 'api_roomBulkCreation']);
    } finally {
      await db.destroy();
      await target.drop();
    }
  }, 30_000);
});
