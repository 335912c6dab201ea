/**
 * What a role holds and what follows from it, for every feature that asks: its grants (auth
 * bindings), the menu it may see, and the escalation guards (docs/api/system.md): an operator can
 * neither hand out more than their own role holds nor act on a user whose role holds more. Used by
 * the sign-in, user, role, menu dictionary and online-user features.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { SessionUser } from '../lib/route';
import type { Static } from '../../contract/common';
import type { AuthItem } from '../../contract/sys/role';
import type { DataOf } from '../../contract';
import { forbidden, invalid, notFound } from '../lib/errors';
import { hasOrg, mayPlaceUnder, type DataScope } from '../lib/data-scope';

export type Grant = Static<typeof AuthItem>;
type Db = Kysely<Database>;

export const sameGrant = (a: Grant, b: Grant) => a.type === b.type && a.resource === b.resource;

export async function findRole(db: Db, roleId: number) {
  const role = await db.selectFrom('sysRole').select(['id', 'builtin', 'dataScope']).where('id', '=', roleId).executeTakeFirst();
  if (!role) throw notFound('角色');
  return role;
}

/** The bindings stored for a role, menus first. */
export async function storedGrants(db: Db, roleId: number): Promise<Grant[]> {
  const rows = await db.selectFrom('sysRoleAuth').select(['type', 'resource']).where('roleId', '=', roleId).orderBy('type').orderBy('resource').execute();
  return rows.map((row) => ({ type: row.type === 'menu' ? 'menu' : 'resource', resource: row.resource }));
}

/** Everything there is: what the built-in role holds without any stored binding. */
export async function everyGrant(db: Db): Promise<Grant[]> {
  const [menus, resources] = await Promise.all([db.selectFrom('sysMenu').select('id').orderBy('id').execute(), db.selectFrom('sysResource').select('id').orderBy('id').execute()]);
  return [...menus.map((m): Grant => ({ type: 'menu', resource: m.id })), ...resources.map((r): Grant => ({ type: 'resource', resource: r.id }))];
}

/** True when every binding of `roleId` is also a binding of `holderRoleId`. */
async function isSubsetOf(db: Db, roleId: number, holderRoleId: number): Promise<boolean> {
  const extra = await db
    .selectFrom('sysRoleAuth as t')
    .select('t.id')
    .where('t.roleId', '=', roleId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('sysRoleAuth as o').select('o.id').where('o.roleId', '=', holderRoleId).whereRef('o.type', '=', 't.type').whereRef('o.resource', '=', 't.resource'),
        ),
      ),
    )
    .limit(1)
    .executeTakeFirst();
  return extra === undefined;
}

/** Where the user being bound sits, and the operator's data scope, against which the role's scope is weighed. */
export interface Placement {
  scope: DataScope;
  orgId: number | null;
}

const WIDER_SCOPE = '不能将用户加入数据范围超出自己的角色';

/**
 * The role's data scope, for a user in unit `orgId`, sees no row the operator's scope does not:
 * all only under all; the user's unit and below, or the role's custom units, only where the
 * operator covers whole subtrees; the user's unit where the operator sees it; self always.
 */
export async function assertScopeWithin(db: Db, operatorScope: DataScope, role: { id: number; dataScope: string }, orgId: number | null): Promise<void> {
  if (!(await scopeWithin(db, operatorScope, role, orgId))) throw forbidden(WIDER_SCOPE);
}

async function scopeWithin(db: Db, operatorScope: DataScope, role: { id: number; dataScope: string }, orgId: number | null): Promise<boolean> {
  if (operatorScope.kind === 'all') return true;
  switch (role.dataScope) {
    case 'self':
      return true;
    case 'org':
      return orgId !== null && hasOrg(operatorScope, orgId);
    case 'orgAndBelow':
      return orgId !== null && mayPlaceUnder(operatorScope, orgId);
    case 'custom': {
      const units = await db.selectFrom('sysRoleOrg').select('orgId').where('roleId', '=', role.id).execute();
      return units.every((unit) => mayPlaceUnder(operatorScope, unit.orgId));
    }
    default:
      return false;
  }
}

/**
 * A role may be given this data scope by the operator: a scoped operator cannot create or edit a
 * role of scope all, and a custom scope names only units whose subtrees the operator covers.
 * Unit-relative scopes (orgAndBelow, org, self) are weighed when a user is bound (assertScopeWithin).
 */
export async function assertScopeGivable(db: Db, operatorScope: DataScope, dataScope: string, scopeOrgIds: readonly number[]): Promise<void> {
  if (dataScope === 'custom') {
    if (scopeOrgIds.length === 0) throw invalid('指定单位的数据范围至少要选择一个单位');
    const known = await db.selectFrom('sysOrg').select('id').where('id', 'in', scopeOrgIds).execute();
    if (known.length !== scopeOrgIds.length || !scopeOrgIds.every((id) => mayPlaceUnder(operatorScope, id))) throw notFound('指定单位');
  }
  if (operatorScope.kind !== 'all' && dataScope === 'all') throw forbidden('不能设置超出自己的数据范围');
}

/**
 * The operator may put a user into `roleId`: the built-in role only by a built-in operator, any
 * other role only when its grants are a subset of the operator's own and its data scope, for the
 * user's unit, no wider than the operator's.
 */
export async function assertMayAssignRole(db: Db, operator: SessionUser, roleId: number, placement: Placement): Promise<void> {
  const role = await findRole(db, roleId);
  if (operator.builtin) return;
  if (role.builtin === 1) throw forbidden('只有超级管理员可以将用户加入超级管理员角色');
  if (!(await isSubsetOf(db, roleId, operator.roleId))) throw forbidden('不能将用户加入权限超出自己角色的角色');
  await assertScopeWithin(db, placement.scope, role, placement.orgId);
}

/**
 * The roles the operator may give a user somewhere in their scope (the user form's choices), by
 * the rules of `assertMayAssignRole`, a unit-relative scope weighed for a unit the operator could
 * place the user in; the unit chosen is weighed again when the user is saved. Roles stay few.
 */
export async function givableRoles(db: Db, operator: SessionUser, scope: DataScope): Promise<Array<{ id: number; name: string }>> {
  const roles = await db.selectFrom('sysRole').select(['id', 'name', 'builtin', 'dataScope']).orderBy('id').execute();
  if (operator.builtin) return roles.map(({ id, name }) => ({ id, name }));
  // A unit of the scope: where a user given a role of the operator's unit (or of it and below) could sit.
  const unitFor = (dataScope: string) => [...(dataScope === 'orgAndBelow' ? scope.subtreeIds : scope.orgIds)][0] ?? null;
  const givable = [];
  for (const role of roles) {
    if (role.builtin === 1 || !(await isSubsetOf(db, role.id, operator.roleId))) continue;
    if (await scopeWithin(db, scope, role, unitFor(role.dataScope))) givable.push({ id: role.id, name: role.name });
  }
  return givable;
}

/**
 * No one acts on a user richer than themselves (docs/api/system.md). A user is richer than the operator
 * when their role is the built-in one and the operator's is not, or holds any grant the
 * operator's role does not; a user with no role is no richer than anyone. Every action on
 * another user goes through here: edit (and so disable), password reset, moving them between
 * roles, ending their sessions. Otherwise an operator holding only the user screen could reset a
 * richer user's password, sign in as them and use their grants.
 */
export async function assertMayManageUser(db: Db, operator: SessionUser, user: { roleId: number | null }): Promise<void> {
  if (operator.builtin || user.roleId === null) return;
  const role = await db.selectFrom('sysRole').select('builtin').where('id', '=', user.roleId).executeTakeFirst();
  if (role?.builtin === 1) throw forbidden('只有超级管理员可以管理超级管理员角色的用户');
  if (!(await isSubsetOf(db, user.roleId, operator.roleId))) throw forbidden('不能管理权限超出自己角色的用户');
}

type AuthorityMenu = DataOf<'GET /sys/menu/authority'>[number];

/**
 * The menu a role may see (docs/architecture.md, access control): menus in state 1 that are public
 * (isAuth 0) or granted to the role, plus their ancestors so every granted child has its parent in
 * the sidebar. Each entry lists the types of its resources the role holds (`granted`), so screens
 * can hide what would be refused.
 */
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

/**
 * A batch action asks for the single action's resource too: whoever may not edit one user may not
 * change many at once, whatever the batch's own grant.
 */
export async function assertHoldsPath(db: Db, operator: SessionUser, path: string): Promise<void> {
  if (operator.builtin) return;
  const held = await db
    .selectFrom('sysResource as r')
    .innerJoin('sysRoleAuth as a', (join) => join.onRef('a.resource', '=', 'r.id').on('a.type', '=', 'resource').on('a.roleId', '=', operator.roleId))
    .select('r.id')
    .where('r.path', '=', path)
    .executeTakeFirst();
  if (!held) throw forbidden();
}
