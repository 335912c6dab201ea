/** Reads of sys_user as the contract's UserRecord (with the role's name). */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import type { BodyOf, DataOf } from '../../../../contract';
import { notFound } from '../../../lib/errors';
import { contains, fetchPage, given } from '../../../lib/list-query';

type Db = Kysely<Database>;
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

export function inquireUsers(db: Db, { size, current, params = {} }: BodyOf<'/sys/user/inquire'>) {
  const filtered = userRecords(db)
    .$if(given(params.userName), (q) => q.where((eb) => contains(eb.ref('u.userName'), params.userName!)))
    .$if(given(params.nickName), (q) => q.where((eb) => contains(eb.ref('u.nickName'), params.nickName!)))
    .$if(params.state !== undefined, (q) => q.where('u.state', '=', params.state!))
    .$if(params.roleId !== undefined, (q) => q.where('u.roleId', '=', params.roleId!));
  return fetchPage(
    { size, current },
    () => filtered.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    (limit, offset) => filtered.orderBy('u.id').limit(limit).offset(offset).execute(),
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
