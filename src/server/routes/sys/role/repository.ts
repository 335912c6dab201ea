/** Reads of sys_role as the contract's RoleRecord, with how many users each role has. */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import type { BodyOf, DataOf } from '../../../../contract';
import { notFound } from '../../../lib/errors';
import { contains, fetchPage, given } from '../../../lib/list-query';

type Db = Kysely<Database>;
export type RoleRecord = DataOf<'/sys/role/edit'>;

const roleRecords = (db: Db) =>
  db
    .selectFrom('sysRole as r')
    .select((eb) => [
      'r.id',
      'r.name',
      'r.remark',
      'r.state',
      'r.builtin',
      'r.createdAt',
      'r.updatedAt',
      'r.version',
      eb
        .selectFrom('sysUser as u')
        .select((sub) => sub.fn.countAll<number>().as('n'))
        .whereRef('u.roleId', '=', 'r.id')
        .as('userCount'),
    ]);

// PostgreSQL answers counts as bigint; the contract wants a plain integer.
const toRecord = ({ userCount, ...role }: { userCount: number | string | null } & Omit<RoleRecord, 'userCount'>): RoleRecord => ({
  ...role,
  userCount: Number(userCount ?? 0),
});

export async function findRoleRecord(db: Db, id: number): Promise<RoleRecord> {
  const role = await roleRecords(db).where('r.id', '=', id).executeTakeFirst();
  if (!role) throw notFound('角色');
  return toRecord(role);
}

export function inquireRoles(db: Db, { size, current, params = {} }: BodyOf<'/sys/role/inquire'>) {
  const filtered = roleRecords(db)
    .$if(given(params.name), (q) => q.where((eb) => contains(eb.ref('r.name'), params.name!)))
    .$if(params.state !== undefined, (q) => q.where('r.state', '=', params.state!));
  return fetchPage(
    { size, current },
    () => filtered.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    async (limit, offset) => (await filtered.orderBy('r.id').limit(limit).offset(offset).execute()).map(toRecord),
  );
}

/** A page of menus, each with all its resources, for the role's grant dialog. */
export function inquireMenuResources(db: Db, { size, current, params = {} }: BodyOf<'/sys/menu/resources'>) {
  const filtered = db.selectFrom('sysMenu as m').$if(given(params.name), (q) => q.where((eb) => contains(eb.ref('m.name'), params.name!)));
  return fetchPage(
    { size, current },
    () => filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    async (limit, offset) => {
      const menus = await filtered
        .select(['m.id', 'm.pid', 'm.name', 'm.path', 'm.element'])
        .orderBy('m.id')
        .limit(limit)
        .offset(offset)
        .execute();
      if (menus.length === 0) return [];
      const resources = await db
        .selectFrom('sysResource')
        .select(['id', 'menuId', 'name', 'type', 'path', 'remark', 'version'])
        .where('menuId', 'in', menus.map((m) => m.id))
        .orderBy('id')
        .execute();
      return menus.map((menu) => ({ ...menu, resources: resources.filter((r) => r.menuId === menu.id) }));
    },
  );
}
