/**
 * Fixtures for the system-administration suites: roles, users and grants made through the API
 * itself (so they obey the same rules), and a few direct reads of the database for assertions.
 */
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { TestApp } from './harness';
import type { Database } from '../../../src/server/db/schema';

export const USER_PASSWORD = 'Quiet-Harbour-42';

type Grant = { type: 'menu' | 'resource'; resource: number };

/**
 * Asserts a 400 refusal with `msg` (a string or an asymmetric matcher) and no data. A refusal of
 * the request's fields also names them (`errors`, the first carrying msg); which field is named is
 * api-field-errors' subject.
 */
export function expectRefused(answer: { code: number; msg: string; data: unknown; errors?: Array<{ field: string; msg: string }> }, msg: unknown): void {
  const { errors, ...envelope } = answer;
  expect(envelope).toEqual({ code: 400, msg, data: null });
  if (errors !== undefined) expect(errors[0]).toEqual({ field: expect.stringMatching(/\S/), msg: answer.msg });
}

/** Asserts success and answers the data, with the msg in the failure text when it is not. */
export function expectOk<T>(answer: { code: number; msg: string; data: T }): T {
  expect({ code: answer.code, msg: answer.msg }).toEqual({ code: 200, msg: answer.msg });
  return answer.data;
}

export async function rowCount(app: TestApp, table: keyof Database): Promise<number> {
  const row = await app.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function menuId(app: TestApp, path: string): Promise<number> {
  const row = await app.database.db.selectFrom('sysMenu').select('id').where('path', '=', path).executeTakeFirstOrThrow();
  return row.id;
}

export async function resourceId(app: TestApp, path: string): Promise<number> {
  const row = await app.database.db.selectFrom('sysResource').select('id').where('path', '=', path).executeTakeFirstOrThrow();
  return row.id;
}

/** A menu and every resource under it, as grant items. */
export async function menuGrants(app: TestApp, path: string): Promise<Grant[]> {
  const id = await menuId(app, path);
  const resources = await app.database.db.selectFrom('sysResource').select('id').where('menuId', '=', id).orderBy('id').execute();
  return [{ type: 'menu', resource: id }, ...resources.map((r): Grant => ({ type: 'resource', resource: r.id }))];
}

export async function createRole(app: TestApp, token: string, name: string, grant: Grant[] = []) {
  const role = expectOk(await app.call('/sys/role/creation', { name, remark: '', state: 1 }, token));
  if (grant.length > 0) expectOk(await app.call('/sys/role/auth', { roleId: role.id, grant, revoke: [] }, token));
  return role;
}

export async function createUser(app: TestApp, token: string, userName: string, roleId: number | null) {
  return expectOk(await app.call('/sys/user/creation', { userName, nickName: `${userName} 昵称`, password: USER_PASSWORD, state: 1, roleId }, token));
}

/** A role holding the given grants, a user in it, and that user's token. */
export async function signedInOperator(app: TestApp, adminToken: string, name: string, grant: Grant[]) {
  const role = await createRole(app, adminToken, name, grant);
  const user = await createUser(app, adminToken, name, role.id);
  return { role, user, token: await app.login(name, USER_PASSWORD) };
}

/**
 * A device row as the database stores it, for tests that insert devices past the API (lists,
 * search). Its presence row comes with it, offline and never seen; `setPresence` changes that.
 */
export const deviceRow = (sn: string, overrides: Partial<Insertable<Database['hotelDevice']>> = {}) => {
  const now = Date.now();
  return {
    name: sn,
    sn,
    type: 'lock',

    locationId: null,
    state: 1,
    keyHash: 'x',
    remark: '',
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
};

/** Sets the presence (online, last seen, since when) of the devices with these ids, past the API. */
export const setPresence = (db: Kysely<Database>, ids: number[], presence: Updateable<Database['hotelDevicePresence']>) =>
  db.updateTable('hotelDevicePresence').set(presence).where('id', 'in', ids).execute();
