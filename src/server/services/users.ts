/** Reads of sys_user as the contract's UserRecord (with the role's name). */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { BodyOf, DataOf } from '../../contract';
import { notFound } from '../lib/errors';
import {
  defaultOrder,
  countUpTo,
  fetchCappedPage,
  fetchMatchedPage,
  idsUpTo,
  inOrder,
  listOrder,
  ordered,
  type ListOrder,
  type PageRequest,
  type SortColumn,
} from '../lib/list-query';
import { idIn } from '../lib/id-list';
import { listSearch } from '../lib/text-search';
import type { Dialect } from '../db/dialect';
import type { USER_SORT_KEYS } from '../../contract/sys/user';

/** Where lists are read (the server's `reads`) and its dialect: name searches use the dialect's trigram index. */
export interface UserStore {
  reads: Kysely<Database>;
  dialect: Dialect;
}
type Db = Kysely<Database>;
type UserSortKey = (typeof USER_SORT_KEYS)[number];
export type UserRecord = DataOf<'/sys/user/detail'>;

const users = (db: Db) => db.selectFrom('sysUser as u');
type Users = ReturnType<typeof users>;
/** The users `query` selects as records, with their role's name. */
const asRecords = (query: Users) =>
  query
    .leftJoin('sysRole as r', 'r.id', 'u.roleId')
    .select(['u.id', 'u.userName', 'u.nickName', 'u.state', 'u.roleId', 'r.name as roleName', 'u.createdAt', 'u.updatedAt', 'u.version']);
const userRecords = (db: Db) => asRecords(users(db));

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
/** The list's order, its id taken from `idColumn` (the search's, which may be the FTS rowid). */
const userOrder = (sort: UserSort, idColumn = 'u.id') => listOrder(sort, USER_SORT, defaultOrder(['id', idColumn]), idColumn);

type UserFilters = NonNullable<BodyOf<'/sys/user/inquire'>['params']>;
type UserSort = BodyOf<'/sys/user/inquire'>['sort'];

const nameSearch = ({ dialect }: UserStore, params: Pick<UserFilters, 'userName' | 'nickName'>) =>
  listSearch(dialect, 'sys_user', 'u.id', [
    { column: 'user_name', ref: sql.ref('u.userName'), text: params.userName },
    { column: 'nick_name', ref: sql.ref('u.nickName'), text: params.nickName },
  ]);

/** A user list to page: its filtered ids, their order, and whether a search filters them. */
interface UserList {
  ids: ReturnType<typeof idsOf>;
  order: ListOrder;
  searching: boolean;
}

/**
 * The ids of the users `filtered` selects, joined to their roles only when `sort` orders by the
 * role's name: a deep page by number steps over every user before it, and on SQLite the join cost
 * eight times the step (page 5,000 of 100,000 users: 8.8 ms with it, 1.0 ms without).
 */
function idsOf(filtered: Users, sort: UserSort) {
  const ids = filtered.select('u.id');
  if (sort?.field !== 'roleName') return ids;
  // The join adds a table the order names in SQL text only (USER_SORT), so the ids' row type is the same.
  return asRecords(filtered).clearSelect().select('u.id') as unknown as typeof ids;
}

/** The users the filters select (as records for exports), and the order their search needs (see listSearch). */
function filteredUsers(store: UserStore, params: UserFilters, sort: UserSort): UserList & { query: ReturnType<typeof userRecords> } {
  const search = nameSearch(store, params);
  const filtered = search
    .apply(users(store.reads))
    .$if(params.state !== undefined, (q) => q.where('u.state', '=', params.state!))
    .$if(params.roleId !== undefined, (q) => q.where('u.roleId', '=', params.roleId!));
  return { query: asRecords(filtered), ids: idsOf(filtered, sort), order: userOrder(sort, search.idColumn), searching: search.searching };
}

/**
 * A user list's page: counted up to the cap (see fetchCappedPage), the rows of the asked page; a
 * search's matches read once for both when they are few (fetchMatchedPage). `sort` is the asked one.
 */
function userPage(store: UserStore, { ids, order, searching }: UserList, page: PageRequest, sort?: UserSort) {
  const capped = () =>
    fetchCappedPage(
      page,
      countUpTo(store.reads, ids),
      // The page's ids first, then only those rows with their role: a deep page skips ids, not
      // users joined to their roles.
      (limit, offset, seek) =>
        ordered(
          userRecords(store.reads).where(
            'u.id',
            'in',
            ordered(
              ids.$if(seek !== null, (q) => q.where(seek!)),
              order,
            )
              .limit(limit)
              .offset(offset),
          ),
          userOrder(sort),
        ).execute(),
      { order, rowById: (id) => userRecords(store.reads).where('u.id', '=', id).executeTakeFirst() },
    );
  if (!searching) return capped();
  return fetchMatchedPage(
    page,
    {
      ids: idsUpTo(store.reads, ids),
      rows: (matched, limit, offset) =>
        ordered(userRecords(store.reads).where(idIn(store.dialect, 'u.id', matched)), userOrder(sort))
          .limit(limit)
          .offset(offset)
          .execute(),
    },
    capped,
  );
}

export function inquireUsers(store: UserStore, { size, current, after, params = {}, sort }: BodyOf<'/sys/user/inquire'>) {
  return userPage(store, filteredUsers(store, params, sort), { size, current, after }, sort);
}

/** Every user the list's filters match, in the list's order, read in batches (export). */
export function usersInOrder(store: UserStore, { params = {}, sort }: BodyOf<'/sys/user/export'>) {
  const { query, order } = filteredUsers(store, params, sort);
  return inOrder(order, (seek, limit) =>
    ordered(
      query.$if(seek !== null, (q) => q.where(seek!)),
      order,
    )
      .limit(limit)
      .execute(),
  );
}

/** A role's users, or with `member` 0 the users outside it (candidates for binding). */
export function inquireRoleUsers(store: UserStore, { size, current, after, params }: BodyOf<'/sys/role/user/inquire'>) {
  const member = params.member ?? 1;
  const search = nameSearch(store, { userName: params.userName });
  const filtered = search
    .apply(users(store.reads))
    .where((eb) => (member === 1 ? eb('u.roleId', '=', params.roleId) : eb.or([eb('u.roleId', 'is', null), eb('u.roleId', '<>', params.roleId)])));
  return userPage(store, { ids: idsOf(filtered, undefined), order: userOrder(undefined, search.idColumn), searching: search.searching }, { size, current, after });
}
