/** Reads of sys_user as the contract's UserRecord (with the role's name). */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import type { BodyOf, DataOf } from '../../../../contract';
import { notFound } from '../../../lib/errors';
import { contains, defaultOrder, fetchPage, given, inOrder, listOrder, ordered, type SortColumn } from '../../../lib/list-query';
import type { USER_SORT_KEYS } from '../../../../contract/sys/user';

type Db = Kysely<Database>;
type UserSortKey = (typeof USER_SORT_KEYS)[number];
export type UserRecord = DataOf<'/sys/user/detail'>;

const userRecords = (db: Db) =>
  db
    .selectFrom('sysUser as u')
    .leftJoin('sysRole as r', 'r.id', 'u.roleId')
    .select(['u.id', 'u.userName', 'u.nickName', 'u.state', 'u.roleId', 'r.name as roleName', 'u.createdAt', 'u.updatedAt', 'u.version']);

export async function findUser(db: Db, id: number): Promise<UserRecord> {
  const user = await userRecords(db).where('u.id', '=', id).executeTakeFirst();
  if (!user) throw notFound('用户');
  return user;
}

/** The sort keys of the user list (contract USER_SORT_KEYS) and the columns they order by. */
export const USER_SORT: Record<UserSortKey, SortColumn> = {
  userName: 'u.userName',
  nickName: 'u.nickName',
  state: 'u.state',
  roleName: { column: 'r.name', nullable: true },
  createdAt: 'u.createdAt',
  updatedAt: 'u.updatedAt',
};
const USER_ORDER = defaultOrder(['id', 'u.id']);

type UserFilters = NonNullable<BodyOf<'/sys/user/inquire'>['params']>;

function filteredUsers(db: Db, params: UserFilters) {
  return userRecords(db)
    .$if(given(params.userName), (q) => q.where((eb) => contains(eb.ref('u.userName'), params.userName!)))
    .$if(given(params.nickName), (q) => q.where((eb) => contains(eb.ref('u.nickName'), params.nickName!)))
    .$if(params.state !== undefined, (q) => q.where('u.state', '=', params.state!))
    .$if(params.roleId !== undefined, (q) => q.where('u.roleId', '=', params.roleId!));
}

export function inquireUsers(db: Db, { size, current, params = {}, sort }: BodyOf<'/sys/user/inquire'>) {
  const filtered = filteredUsers(db, params);
  const order = listOrder(sort, USER_SORT, USER_ORDER, 'u.id');
  return fetchPage(
    { size, current },
    () => filtered.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    (limit, offset) => ordered(filtered, order).limit(limit).offset(offset).execute(),
  );
}

/** Every user the list's filters match, in the list's order, read in batches (export). */
export function usersInOrder(db: Db, { params = {}, sort }: BodyOf<'/sys/user/export'>) {
  const order = listOrder(sort, USER_SORT, USER_ORDER, 'u.id');
  return inOrder(order, (seek, limit) =>
    ordered(filteredUsers(db, params).$if(seek !== null, (q) => q.where(seek!)), order)
      .limit(limit)
      .execute(),
  );
}

/** A role's users, or with `member` 0 the users outside it (candidates for binding). */
export function inquireRoleUsers(db: Db, { size, current, params }: BodyOf<'/sys/role/user/inquire'>) {
  const member = params.member ?? 1;
  const filtered = userRecords(db)
    .where((eb) => (member === 1 ? eb('u.roleId', '=', params.roleId) : eb.or([eb('u.roleId', 'is', null), eb('u.roleId', '<>', params.roleId)])))
    .$if(given(params.userName), (q) => q.where((eb) => contains(eb.ref('u.userName'), params.userName!)));
  return fetchPage(
    { size, current },
    () => filtered.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    (limit, offset) => filtered.orderBy('u.id').limit(limit).offset(offset).execute(),
  );
}
