/**
 * 位置管理 (hotel/location) in a database seeded before it existed: the menu under 酒店管理, the
 * location write resources 008 seeded under 设备管理 moved to it (their grants move with them: a
 * grant names the resource), and 删除位置. 查询位置 stays with 设备管理, whose filter reads the tree.
 * An empty database has no 酒店管理 yet: the start-up seed (services/builtins/catalogue.ts) brings all of it. The
 * start-up sync then adopts these rows as the built-ins they are (same menu path, same API paths).
 */
import type { Generated, Kysely } from 'kysely';

/** The two tables as this migration found them (snake_case: the migrator's handle may lack the camel-case plugin). */
interface Snapshot {
  sys_menu: {
    id: Generated<number>;
    pid: number | null;
    name: string;
    path: string;
    element: string;
    icon: string;
    sort: number;
    state: number;
    is_auth: number;
    created_at: number;
    updated_at: number;
  };
  sys_resource: { id: Generated<number>; menu_id: number; name: string; type: string; path: string; remark: string; created_at: number; updated_at: number };
}

const MENU = { name: '位置管理', path: '/hotel/location', element: 'hotel/location', icon: 'HomeOutlined' };
/** API path -> the resource's name and type under 位置管理 (as the built-in catalogue has them). */
const RESOURCES: Array<{ path: string; name: string; type: string }> = [
  { path: '/hotel/location/creation', name: '新增位置', type: 'api_creation' },
  { path: '/hotel/location/edit', name: '编辑位置', type: 'api_edit' },
  { path: '/hotel/location/rooms/creation', name: '批量新增房间', type: 'api_roomBulkCreation' },
  { path: '/hotel/location/removal', name: '删除位置', type: 'api_removal' },
];

export const locationMenu = {
  // Results are aliased to names the camel-case plugin (when the app migrates) leaves as they are.
  async up(handle: Kysely<unknown>): Promise<void> {
    const db = handle as unknown as Kysely<Snapshot>;
    const area = await db.selectFrom('sys_menu').select('id as areaId').where('pid', 'is', null).where('path', '=', '/hotel').executeTakeFirst();
    if (!area) return;
    const areaId = Number(area.areaId);
    const now = Date.now();
    let menu = await db.selectFrom('sys_menu').select('id as menuId').where('path', '=', MENU.path).where('element', '=', MENU.element).executeTakeFirst();
    if (!menu) {
      const last = await db
        .selectFrom('sys_menu')
        .select((eb) => eb.fn.max('sort').as('top'))
        .where('pid', '=', areaId)
        .executeTakeFirst();
      menu = await db
        .insertInto('sys_menu')
        .values({ pid: areaId, ...MENU, sort: Number(last?.top ?? 0) + 1, state: 1, is_auth: 1, created_at: now, updated_at: now })
        .returning('id as menuId')
        .executeTakeFirstOrThrow();
    }
    const menuId = Number(menu.menuId);
    for (const resource of RESOURCES) {
      const existing = await db.selectFrom('sys_resource').select('id as resourceId').where('path', '=', resource.path).executeTakeFirst();
      if (existing) {
        await db.updateTable('sys_resource').set({ menu_id: menuId, type: resource.type, updated_at: now }).where('id', '=', existing.resourceId).execute();
      } else {
        await db
          .insertInto('sys_resource')
          .values({ menu_id: menuId, name: resource.name, type: resource.type, path: resource.path, remark: '', created_at: now, updated_at: now })
          .execute();
      }
    }
  },
};
