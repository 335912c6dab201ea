/** Reads of sys_user as the contract's UserRecord (with the role's name). */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import type { BodyOf, DataOf } from '../../../../contract';
import { notFound } from '../../../lib/errors';
import { defaultOrder, countUpTo, fetchCappedPage, given, inOrder, listOrder, ordered, type ListOrder, type SortColumn } from '../../../lib/list-query';
import { searchContains } from '../../../lib/text-search';
import type { Dialect } from '../../../db/connection';
import type { USER_SORT_KEYS } from '../../../../contract/sys/user';

/** The database and its dialect: the name searches use the dialect's trigram index. */
export interface UserStore {
  db: Kysely<Database>;
  dialect: Dialect;
}
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

const userNameContains = ({ dialect }: UserStore, text: string) =>
  searchContains(dialect, { table: 'sys_user', column: 'user_name', ref: sql.ref('u.userName'), id: sql.ref('u.id') }, text);
const nickNameContains = ({ dialect }: UserStore, text: string) =>
  searchContains(dialect, { table: 'sys_user', column: 'nick_name', ref: sql.ref('u.nickName'), id: sql.ref('u.id') }, text);

function filteredUsers(store: UserStore, params: UserFilters) {
  return userRecords(store.db)
    .$if(given(params.userName), (q) => q.where(userNameContains(store, params.userName!)))
    .$if(given(params.nickName), (q) => q.where(nickNameContains(store, params.nickName!)))
    .$if(params.state !== undefined, (q) => q.where('u.state', '=', params.state!))
    .$if(params.roleId !== undefined, (q) => q.where('u.roleId', '=', params.roleId!));
}

/** A user list's page: counted up to the cap (see fetchCappedPage), the rows of the asked page. */
function userPage(store: UserStore, filtered: ReturnType<typeof userRecords>, page: { size: number; current: number }, order: ListOrder) {
  return fetchCappedPage(page, countUpTo(store.db, filtered.clearSelect().select('u.id')), (limit, offset) => ordered(filtered, order).limit(limit).offset(offset).execute());
}

export function inquireUsers(store: UserStore, { size, current, params = {}, sort }: BodyOf<'/sys/user/inquire'>) {
  return userPage(store, filteredUsers(store, params), { size, current }, listOrder(sort, USER_SORT, USER_ORDER, 'u.id'));
}

/** Every user the list's filters match, in the list's order, read in batches (export). */
export function usersInOrder(store: UserStore, { params = {}, sort }: BodyOf<'/sys/user/export'>) {
  const order = listOrder(sort, USER_SORT, USER_ORDER, 'u.id');
  return inOrder(order, (seek, limit) =>
    ordered(
      filteredUsers(store, params).$if(seek !== null, (q) => q.where(seek!)),
      order,
    )
      .limit(limit)
      .execute(),
  );
}

/** A role's users, or with `member` 0 the users outside it (candidates for binding). */
export function inquireRoleUsers(store: UserStore, { size, current, params }: BodyOf<'/sys/role/user/inquire'>) {
  const member = params.member ?? 1;
  const filtered = userRecords(store.db)
    .where((eb) => (member === 1 ? eb('u.roleId', '=', params.roleId) : eb.or([eb('u.roleId', 'is', null), eb('u.roleId', '<>', params.roleId)])))
    .$if(given(params.userName), (q) => q.where(userNameContains(store, params.userName!)));
  return userPage(store, filtered, { size, current }, USER_ORDER);
}
