/**
 * Changing a role's grants (POST /sys/role/auth): every item is checked before anything is written,
 * and grants and revocations land in one transaction (the caller's), so a request with one bad item changes
 * nothing. Granting a resource grants its menu's view too (docs/api/system.md), so no request can
 * leave a role with a resource it has no screen for.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema';
import type { BodyOf } from '../../../../contract';
import type { SessionUser } from '../../../lib/route';
import { forbidden, invalid, notFound } from '../../../lib/errors';
import { findRole, sameGrant, storedGrants, type Grant } from '../../../services/grants';

type Db = Kysely<Database>;

const KIND_NAMES = { menu: '菜单', resource: '资源' } as const;

/** Names of the granted objects by kind and id; a missing id is a 404 naming it. */
async function namesOf(db: Db, items: Grant[]): Promise<Map<string, string>> {
  const ids = (type: Grant['type']) => [...new Set(items.filter((i) => i.type === type).map((i) => i.resource))];
  const menuIds = ids('menu');
  const resourceIds = ids('resource');
  const [menus, resources] = await Promise.all([
    menuIds.length ? db.selectFrom('sysMenu').select(['id', 'name']).where('id', 'in', menuIds).execute() : [],
    resourceIds.length ? db.selectFrom('sysResource').select(['id', 'name']).where('id', 'in', resourceIds).execute() : [],
  ]);
  const names = new Map<string, string>([...menus.map((m): [string, string] => [`menu:${m.id}`, m.name]), ...resources.map((r): [string, string] => [`resource:${r.id}`, r.name])]);
  const missing = items.find((item) => !names.has(`${item.type}:${item.resource}`));
  if (missing) throw notFound(`${KIND_NAMES[missing.type]}（编号 ${missing.resource}）`);
  return names;
}

/** The menus holding the granted resources, as menu grants not already asked for. */
async function impliedMenus(db: Db, grant: Grant[]): Promise<Grant[]> {
  const resourceIds = [...new Set(grant.filter((item) => item.type === 'resource').map((item) => item.resource))];
  if (resourceIds.length === 0) return [];
  const rows = await db.selectFrom('sysResource').select('menuId').distinct().where('id', 'in', resourceIds).execute();
  return rows.map((row): Grant => ({ type: 'menu', resource: row.menuId })).filter((menu) => !grant.some((item) => sameGrant(item, menu)));
}

/** Runs in the caller's transaction (the access cache's `change`, which announces it). */
export async function changeGrants(trx: Transaction<Database>, operator: SessionUser, { roleId, grant: asked, revoke }: BodyOf<'/sys/role/auth'>): Promise<Grant[]> {
  const role = await findRole(trx, roleId);
  const grant = [...asked, ...(await impliedMenus(trx, asked))];
  if (role.builtin === 1) throw invalid('超级管理员角色拥有全部权限，不能修改授权');
  if (grant.some((g) => revoke.some((r) => sameGrant(g, r)))) throw invalid('同一权限不能同时授予和撤销');
  const items = [...grant, ...revoke];
  const names = await namesOf(trx, items);
  if (!operator.builtin) {
    // An operator hands out or takes away only what their own role holds (docs/api/system.md).
    const held = await storedGrants(trx, operator.roleId);
    const refused = items.find((item) => !held.some((h) => sameGrant(h, item)));
    if (refused) {
      const name = names.get(`${refused.type}:${refused.resource}`);
      throw forbidden(`不能授予或撤销自己角色没有的权限：${KIND_NAMES[refused.type]}「${name}」`);
    }
  }

  if (grant.length > 0) {
    await trx
      .insertInto('sysRoleAuth')
      .values(grant.map((item) => ({ roleId, type: item.type, resource: item.resource })))
      .onConflict((oc) => oc.columns(['roleId', 'type', 'resource']).doNothing())
      .execute();
  }
  for (const type of ['menu', 'resource'] as const) {
    const ids = revoke.filter((item) => item.type === type).map((item) => item.resource);
    if (ids.length > 0) {
      await trx.deleteFrom('sysRoleAuth').where('roleId', '=', roleId).where('type', '=', type).where('resource', 'in', ids).execute();
    }
  }
  return storedGrants(trx, roleId);
}
