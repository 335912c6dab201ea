/**
 * The menu a role may see (DESIGN 4): menus in state 1 that are public (isAuth 0) or granted to the
 * role, plus their ancestors so every granted child has its parent in the sidebar. Each entry lists
 * the types of its resources the role holds (`granted`), so screens can hide what would be refused.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import type { DataOf } from '../../../../contract';

type AuthorityMenu = DataOf<'GET /sys/menu/authority'>[number];

export async function authorisedMenu(db: Kysely<Database>, role: { roleId: number; builtin: boolean }): Promise<AuthorityMenu[]> {
  const menus = await db
    .selectFrom('sysMenu')
    .select(['id', 'pid', 'name', 'path', 'element', 'icon', 'sort', 'state', 'isAuth'])
    .where('state', '=', 1)
    .orderBy('sort')
    .orderBy('id')
    .execute();
  const held = await db
    .selectFrom('sysResource as r')
    .$if(!role.builtin, (q) => q.innerJoin('sysRoleAuth as a', (join) => join.onRef('a.resource', '=', 'r.id').on('a.type', '=', 'resource').on('a.roleId', '=', role.roleId)))
    .select(['r.menuId', 'r.type'])
    .orderBy('r.id')
    .execute();
  const grantedOf = (menuId: number) => held.filter((resource) => resource.menuId === menuId).map((resource) => resource.type);
  const withGrants = (menu: (typeof menus)[number]): AuthorityMenu => ({ ...menu, granted: grantedOf(menu.id) });
  if (role.builtin) return menus.map(withGrants);

  const granted = await db.selectFrom('sysRoleAuth').select('resource').where('roleId', '=', role.roleId).where('type', '=', 'menu').execute();
  const byId = new Map(menus.map((menu) => [menu.id, menu]));
  const visible = new Set<number>();
  const show = (id: number | null) => {
    // Walk up to the root; a disabled or missing ancestor hides the branch.
    const chain: number[] = [];
    for (let current = id; current !== null;) {
      const menu = byId.get(current);
      if (!menu) return;
      chain.push(menu.id);
      current = menu.pid;
    }
    chain.forEach((menuId) => visible.add(menuId));
  };
  granted.forEach((grant) => show(grant.resource));
  menus.filter((menu) => menu.isAuth === 0).forEach((menu) => show(menu.id));
  return menus.filter((menu) => visible.has(menu.id)).map(withGrants);
}
