/**
 * 位置管理 gets a list of its own. The tree (/hotel/location/tree) was 设备管理's 查询位置, read by
 * its location filter and picker, so a role granted 位置管理 alone opened that screen on a refused
 * read. Now the tree is 位置管理's 查询位置 (api_inquire), and 设备管理 picks locations at
 * /hotel/device/location/tree (可选位置, the screens' pickers: contract/pickers.ts).
 * Grants follow what each role could do: 设备管理's row keeps its id, so its grants, and takes the
 * picker's path; the new list goes to every role that held the tree and sees 位置管理. An empty
 * database has no menus yet: the start-up seed brings both as the catalogue has them.
 */
import type { Generated, Kysely } from 'kysely';

/** The tables as this migration found them (snake_case: the migrator's handle may lack the camel-case plugin). */
interface Snapshot {
  sys_menu: { id: Generated<number>; path: string };
  sys_resource: { id: Generated<number>; menu_id: number; name: string; type: string; path: string; remark: string; created_at: number; updated_at: number };
  sys_role_auth: { id: Generated<number>; role_id: number; type: string; resource: number };
}

const TREE = '/hotel/location/tree';
const DEVICE_PICKER = { name: '可选位置', path: '/hotel/device/location/tree' };
const LOCATION_LIST = { name: '查询位置', type: 'api_inquire', path: TREE };

export const locationList = {
  // Results are aliased to names the camel-case plugin (when the app migrates) leaves as they are.
  async up(handle: Kysely<unknown>): Promise<void> {
    const db = handle as unknown as Kysely<Snapshot>;
    const menuOf = async (path: string) => (await db.selectFrom('sys_menu').select('id as menuId').where('path', '=', path).executeTakeFirst())?.menuId;
    const [device, location] = [await menuOf('/hotel/device'), await menuOf('/hotel/location')];
    const tree = await db.selectFrom('sys_resource').select(['id as resourceId', 'menu_id as menuId']).where('path', '=', TREE).executeTakeFirst();
    if (device === undefined || location === undefined || !tree || Number(tree.menuId) !== Number(device)) return;
    const now = Date.now();
    await db
      .updateTable('sys_resource')
      .set({ ...DEVICE_PICKER, updated_at: now })
      .where('id', '=', tree.resourceId)
      .execute();
    const list = await db
      .insertInto('sys_resource')
      .values({ menu_id: Number(location), ...LOCATION_LIST, remark: '', created_at: now, updated_at: now })
      .returning('id as listId')
      .executeTakeFirstOrThrow();
    const readers = await db
      .selectFrom('sys_role_auth as t')
      .innerJoin('sys_role_auth as m', (join) => join.onRef('m.role_id', '=', 't.role_id').on('m.type', '=', 'menu').on('m.resource', '=', Number(location)))
      .select('t.role_id as roleId')
      .where('t.type', '=', 'resource')
      .where('t.resource', '=', tree.resourceId)
      .execute();
    for (const { roleId } of readers)
      await db
        .insertInto('sys_role_auth')
        .values({ role_id: Number(roleId), type: 'resource', resource: Number(list.listId) })
        .execute();
  },
};
