/**
 * Reads of sys_role as the contract's RoleRecord, with how many users each role has. Roles are
 * configuration (no data scope), but their users are not: the count holds only the users the caller's
 * scope covers, so a hotel's operator learns nothing of another hotel's staff from it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import type { BodyOf, DataOf } from '../../../../contract';
import { notFound } from '../../../lib/errors';
import { contains, defaultOrder, fetchPage, given, inOrder, listOrder, ordered, type SortColumn } from '../../../lib/list-query';
import type { ROLE_SORT_KEYS } from '../../../../contract/sys/role';
import { inScope, type DataScope } from '../../../lib/data-scope';

type Db = Kysely<Database>;
export type RoleRecord = DataOf<'/sys/role/edit'>;

const roleRecords = (db: Db, scope: DataScope) =>
  db.selectFrom('sysRole as r').select((eb) => [
    'r.id',
    'r.name',
    'r.remark',
    'r.state',
    'r.builtin',
    'r.dataScope',
    'r.createdAt',
    'r.updatedAt',
    'r.version',
    eb
      .selectFrom('sysUser as u')
      .select((sub) => sub.fn.countAll<number>().as('n'))
      .whereRef('u.roleId', '=', 'r.id')
      .$call(inScope(scope, { org: 'u.orgId', self: 'u.id' }))
      .as('userCount'),
  ]);

// PostgreSQL answers counts as bigint; the contract wants a plain integer.
type RoleRow = { userCount: number | string | null } & Omit<RoleRecord, 'userCount' | 'scopeOrgIds'>;

/** The roles as records, each with the units of its custom scope (one query for them all). */
async function toRecords(db: Db, rows: RoleRow[]): Promise<RoleRecord[]> {
  const ids = rows.filter((row) => row.dataScope === 'custom').map((row) => row.id);
  const units = ids.length === 0 ? [] : await db.selectFrom('sysRoleOrg').select(['roleId', 'orgId']).where('roleId', 'in', ids).orderBy('orgId').execute();
  return rows.map(({ userCount, ...role }) => ({
    ...role,
    scopeOrgIds: units.filter((unit) => unit.roleId === role.id).map((unit) => unit.orgId),
    userCount: Number(userCount ?? 0),
  }));
}

export async function findRoleRecord(db: Db, scope: DataScope, id: number): Promise<RoleRecord> {
  const role = await roleRecords(db, scope).where('r.id', '=', id).executeTakeFirst();
  if (!role) throw notFound('角色');
  return (await toRecords(db, [role]))[0];
}

/** The sort keys of the role list (contract ROLE_SORT_KEYS) and the columns they order by. */
const ROLE_SORT: Record<(typeof ROLE_SORT_KEYS)[number], SortColumn> = {
  name: 'r.name',
  state: 'r.state',
  createdAt: 'r.createdAt',
  updatedAt: 'r.updatedAt',
};
const ROLE_ORDER = defaultOrder(['id', 'r.id']);

type RoleFilters = NonNullable<BodyOf<'/sys/role/inquire'>['params']>;

const filteredRoles = (db: Db, scope: DataScope, params: RoleFilters) =>
  roleRecords(db, scope)
    .$if(given(params.name), (q) => q.where((eb) => contains(eb.ref('r.name'), params.name!)))
    .$if(params.state !== undefined, (q) => q.where('r.state', '=', params.state!));

export function inquireRoles(db: Db, scope: DataScope, { size, current, params = {}, sort }: BodyOf<'/sys/role/inquire'>) {
  const filtered = filteredRoles(db, scope, params);
  const order = listOrder(sort, ROLE_SORT, ROLE_ORDER, 'r.id');
  return fetchPage(
    { size, current },
    () =>
      filtered
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    async (limit, offset) => toRecords(db, await ordered(filtered, order).limit(limit).offset(offset).execute()),
  );
}

/** Every role the list's filters match, in the list's order, read in batches (export). */
export async function* rolesInOrder(db: Db, scope: DataScope, { params = {}, sort }: BodyOf<'/sys/role/export'>): AsyncGenerator<RoleRecord> {
  const order = listOrder(sort, ROLE_SORT, ROLE_ORDER, 'r.id');
  const rows = inOrder(order, (seek, limit) =>
    ordered(
      filteredRoles(db, scope, params).$if(seek !== null, (q) => q.where(seek!)),
      order,
    )
      .limit(limit)
      .execute(),
  );
  for await (const row of rows) yield* await toRecords(db, [row]);
}

/** A page of menus, each with all its resources, for the role's grant dialog. */
export function inquireMenuResources(db: Db, { size, current, params = {} }: BodyOf<'/sys/menu/resources'>) {
  const filtered = db.selectFrom('sysMenu as m').$if(given(params.name), (q) => q.where((eb) => contains(eb.ref('m.name'), params.name!)));
  return fetchPage(
    { size, current },
    () => filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    async (limit, offset) => {
      const menus = await filtered.select(['m.id', 'm.pid', 'm.name', 'm.path', 'm.element']).orderBy('m.id').limit(limit).offset(offset).execute();
      if (menus.length === 0) return [];
      const resources = await db
        .selectFrom('sysResource')
        .select(['id', 'menuId', 'name', 'type', 'path', 'remark', 'version'])
        .where(
          'menuId',
          'in',
          menus.map((m) => m.id),
        )
        .orderBy('id')
        .execute();
      return menus.map((menu) => ({ ...menu, resources: resources.filter((r) => r.menuId === menu.id) }));
    },
  );
}
