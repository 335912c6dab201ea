/**
 * Issue 8, points 1, 6 and 7: numbers arrive as finite JSON numbers within what the database holds
 * (no string is turned into a number, except digits in the two GET helpers' query strings), text
 * carries no control characters, and rows already poisoned by the old coercion are repaired by
 * migration 003.
 */
import { Kysely, Migrator, SqliteDialect, sql, type MigrationProvider } from 'kysely';
import { createTestDatabase, describeOnEachDatabase, startTestApp, type TestApp } from './support/harness';
import { expectOk, rowCount, signedInOperator, menuGrants, expectRefused } from './support/sys-fixtures';
import { contract } from '../../src/contract';
import { openDatabase } from '../../src/server/db/connection';
import { CodeMigrationProvider } from '../../src/server/db/migrations';
import { INSTANT_MAX, INT4_MAX } from '../../src/contract/common';

/** POSTs raw JSON text, so values such as 1e400 reach the server as written. */
async function postRaw(app: TestApp, url: string, text: string, token?: string) {
  const response = await app.app.inject({
    method: 'POST',
    url: `/api${url}`,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: text,
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ code: number; msg: string; data: unknown }>();
}

const menuBody = (sort: string) => `{"pid":null,"name":"poison","path":"","element":"","icon":"","sort":${sort},"state":1,"isAuth":0}`;

describeOnEachDatabase('numbers', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });

  it.each([['"Infinity"'], ['"-Infinity"'], ['"1e400"'], ['1e400'], ['-1e400'], ['"5"'], ['"NaN"'], ['5.5']])(
    'refuses sort %s on menu creation with a 400, stores nothing, and sign-in keeps working',
    async (sort) => {
      const before = await rowCount(ctx(), 'sysMenu');
      const answer = await postRaw(ctx(), '/sys/menu/creation', menuBody(sort), admin);
      expectRefused(answer, '排序类型不正确，应为整数');
      expect(await rowCount(ctx(), 'sysMenu')).toBe(before);
      expect((await ctx().call('GET /sys/menu/authority', null, admin)).code).toBe(200);
      expect((await ctx().call('/sys/user/verify', { userName: 'admin', password: 'Adm1n-Test-Passw0rd' })).code).toBe(200);
    },
  );

  it('refuses "Infinity" as a device state from a device-only operator', async () => {
    const operator = await signedInOperator(ctx(), admin, 'deviceonly', await menuGrants(ctx(), '/hotel/device'));
    const body = '{"name":"门锁","sn":"LOCK-INF1","type":"lock","state":"Infinity","remark":""}';
    expectRefused(await postRaw(ctx(), '/hotel/device/creation', body, operator.token), '状态类型不正确，应为整数');
    expect(await rowCount(ctx(), 'hotelDevice')).toBe(0);
  });

  it.each([
    ['size', '"Infinity"'],
    ['current', '"Infinity"'],
    ['size', '1e400'],
    ['current', '"1e400"'],
  ])('refuses %s = %s on every paged endpoint', async (key, value) => {
    const paged = Object.keys(contract).filter(
      (k) => (contract as Record<string, { body: unknown }>)[k].body && JSON.stringify((contract as Record<string, { body: unknown }>)[k].body).includes('"每页条数"'),
    );
    expect(paged.length).toBeGreaterThan(8);
    for (const url of paged) {
      const body = key === 'size' ? `{"size":${value},"current":1}` : `{"size":20,"current":${value}}`;
      const answer = await postRaw(ctx(), url, body, admin);
      expect({ url, code: answer.code }).toEqual({ url, code: 400 });
    }
  });

  it('coerces only plain decimal digits in the GET helpers’ query strings', async () => {
    const roleId = expectOk(await ctx().call('/sys/role/inquire', { size: 20, current: 1 }, admin)).records[0].id;
    const get = async (query: string) => (await ctx().app.inject({ method: 'GET', url: `/api/sys/role/auth?${query}`, headers: { authorization: `Bearer ${admin}` } })).json();
    expect((await get(`roleId=${roleId}`)).code).toBe(200);
    for (const bad of ['Infinity', '1e0', '%2B1', '%201', '0x1', '1.0', '', '99999999999', '-1', '1%00']) {
      const answer = await get(`roleId=${bad}`);
      expect({ bad, code: answer.code, msg: answer.msg }).toEqual({ bad, code: 400, msg: expect.stringMatching(/^角色/) });
    }
  });

  it('holds task parameters (free-form JSON in the contract) to the same rules', async () => {
    const body = (params: string) => `{"name":"参数","cron":"* * * * *","task":"device.offlineSweep","params":${params},"state":1,"remark":""}`;
    const before = await rowCount(ctx(), 'sysSchedule');
    expect(await postRaw(ctx(), '/sys/schedule/creation', body('{"minutes":1e400}'), admin)).toMatchObject({ code: 400, msg: '任务参数不正确：心跳超时（分钟）应为整数' });
    expect(await postRaw(ctx(), '/sys/schedule/creation', body('{"minutes":"5"}'), admin)).toMatchObject({ code: 400, msg: '任务参数不正确：心跳超时（分钟）应为整数' });
    expect(await postRaw(ctx(), '/sys/schedule/creation', body('{"minutes":5,"a\\u0000":1}'), admin)).toMatchObject({ code: 400 });
    expect(await postRaw(ctx(), '/sys/schedule/creation', body('{"minutes":5,"__proto__":{"x":1}}'), admin)).toMatchObject({ code: 400 });
    expect(await rowCount(ctx(), 'sysSchedule')).toBe(before);
  });

  it('gives every version a bound the database can add one to (PostgreSQL integer overflow)', async () => {
    const role = expectOk(await ctx().call('/sys/role/creation', { name: '版本测试', remark: '', state: 1 }, admin));
    const menu = expectOk(await ctx().call('/sys/menu/creation', { pid: null, name: '版本菜单', path: '', element: '', icon: '', sort: 1, state: 1, isAuth: 1 }, admin));
    expect(await ctx().call('/sys/role/edit', { id: role.id, name: '版本测试', remark: '', state: 1, version: INT4_MAX }, admin)).toEqual({
      code: 400,
      msg: `版本不能大于 ${INT4_MAX - 1}`,
      data: null,
      errors: [{ field: 'version', msg: `版本不能大于 ${INT4_MAX - 1}` }],
    });
    expect((await ctx().call('/sys/menu/edit', { ...menu, version: INT4_MAX, id: menu.id }, admin)).code).toBe(400);
    expect((await ctx().call('/sys/role/edit', { id: role.id, name: '版本测试', remark: '', state: 1, version: INT4_MAX - 1 }, admin)).code).toBe(409);
  });
});

describeOnEachDatabase('text', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });

  it('refuses a NUL in the unauthenticated heartbeat with a 400 naming the field', async () => {
    const answer = await postRaw(ctx(), '/hotel/device/heartbeat', '{"sn":"a\\u0000b"}');
    expectRefused(answer, '序列号不能包含控制字符（U+0000）');
  });

  it('refuses control characters in the sign-in user name and password', async () => {
    expectRefused(await ctx().call('/sys/user/verify', { userName: 'adm\u0000in', password: 'x' }), '用户名不能包含控制字符（U+0000）');
    expectRefused(await ctx().call('/sys/user/verify', { userName: 'admin', password: 'a\u001bb' }), '密码不能包含控制字符（U+001B）');
  });

  it('refuses control characters in filters and in every kind of text field, writing nothing', async () => {
    expect(await ctx().call('/sys/user/inquire', { size: 20, current: 1, params: { userName: 'a\u0000' } }, admin)).toMatchObject({
      code: 400,
      msg: '用户名不能包含控制字符（U+0000）',
    });
    expect(await ctx().call('/hotel/device/inquire', { size: 20, current: 1, params: { name: '\u0085' } }, admin)).toMatchObject({
      code: 400,
      msg: '设备名称不能包含控制字符（U+0085）',
    });
    const before = await rowCount(ctx(), 'sysRole');
    expect(await ctx().call('/sys/role/creation', { name: '前\u0000台', remark: '', state: 1 }, admin)).toMatchObject({ code: 400, msg: '角色名称不能包含控制字符（U+0000）' });
    expect(await ctx().call('/sys/role/creation', { name: '前台', remark: 'a\u0000', state: 1 }, admin)).toMatchObject({ code: 400, msg: '备注不能包含控制字符（U+0000）' });
    expect(await ctx().call('/sys/role/creation', { name: '前\t台', remark: '', state: 1 }, admin)).toMatchObject({ code: 400, msg: '角色名称不能包含控制字符（U+0009）' });
    expect(await ctx().call('/sys/role/creation', { name: '前台\ud800', remark: '', state: 1 }, admin)).toMatchObject({ code: 400, msg: '角色名称含有无效的字符编码' });
    expect(await rowCount(ctx(), 'sysRole')).toBe(before);
  });

  it('lets a remark span lines', async () => {
    const role = expectOk(await ctx().call('/sys/role/creation', { name: '多行备注', remark: '第一行\r\n第二行\t缩进', state: 1 }, admin));
    expect(role.remark).toBe('第一行\r\n第二行\t缩进');
  });
});

type SchemaNode = Record<string, unknown> & { type?: string; properties?: Record<string, SchemaNode>; items?: SchemaNode; anyOf?: SchemaNode[] };

function walk(node: SchemaNode, path: string, visit: (node: SchemaNode, path: string) => void): void {
  visit(node, path);
  for (const [key, child] of Object.entries(node.properties ?? {})) walk(child, `${path}/${key}`, visit);
  if (node.items) walk(node.items, `${path}/[]`, visit);
  node.anyOf?.forEach((child) => walk(child, path, visit));
}

describe('the contract', () => {
  const requests = Object.entries(contract).flatMap(([key, spec]) => (spec.body ? [[key, spec.body as unknown as SchemaNode] as const] : []));

  it('bounds every number of every request within what a PostgreSQL integer column holds', () => {
    const unbounded: string[] = [];
    for (const [key, schema] of requests) {
      walk(schema, key, (node, path) => {
        if (node.type !== 'integer' && node.type !== 'number') return;
        const { minimum, maximum } = node as { minimum?: number; maximum?: number };
        // Integers land in int4 columns, except time bounds (field.instant) in bigint ones.
        if (node.type !== 'integer' || minimum === undefined || maximum === undefined || minimum < -INT4_MAX - 1 || (maximum > INT4_MAX && maximum !== INSTANT_MAX))
          unbounded.push(path);
      });
    }
    expect(unbounded).toEqual([]);
  });

  it('puts the control-character rule on every request string', () => {
    const unguarded: string[] = [];
    for (const [key, schema] of requests) {
      walk(schema, key, (node, path) => {
        if (node.type === 'string' && node.const === undefined && node.textRule === undefined) unguarded.push(path);
      });
    }
    expect(unguarded).toEqual([]);
  });
});

describe('migration 003 on a SQLite database poisoned before it', () => {
  it('repairs non-finite numbers, after which the menu and sign-in answer again', async () => {
    const target = await createTestDatabase('sqlite');
    const { default: SQLite } = await import('better-sqlite3');
    const sqlite = new SQLite(target.sqliteFile);
    // The schema as it stood before 003, poisoned the way the old coercion did it.
    const before: MigrationProvider = {
      getMigrations: async () => Object.fromEntries(Object.entries(await new CodeMigrationProvider('sqlite').getMigrations()).filter(([name]) => name < '003')),
    };
    const raw = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    expect((await new Migrator({ db: raw, provider: before }).migrateToLatest()).error).toBeUndefined();
    const now = Date.now();
    const insertMenu = sqlite.prepare(
      "INSERT INTO sys_menu (pid, name, path, element, icon, sort, state, is_auth, created_at, updated_at) VALUES (NULL, ?, '', '', '', ?, ?, ?, ?, ?)",
    );
    insertMenu.run('poison', Infinity, 1, 0, now, now);
    insertMenu.run('poison2', -Infinity, Infinity, -Infinity, now, now);
    sqlite
      .prepare("INSERT INTO sys_dict (code, label, value, sort, state, remark, created_at, updated_at) VALUES ('poison', 'p', 'p', ?, ?, '', ?, ?)")
      .run(Infinity, -Infinity, now, now);
    await raw.destroy();

    const app = await startTestApp(target);
    try {
      const menus = await app.database.db.selectFrom('sysMenu').select(['name', 'sort', 'state', 'isAuth']).where('name', 'like', 'poison%').orderBy('name').execute();
      expect(menus).toEqual([
        { name: 'poison', sort: 9999, state: 1, isAuth: 0 },
        { name: 'poison2', sort: 0, state: 0, isAuth: 1 },
      ]);
      expect(await app.database.db.selectFrom('sysDict').select(['sort', 'state']).where('code', '=', 'poison').executeTakeFirstOrThrow()).toEqual({ sort: 9999, state: 0 });
      const token = await app.login();
      expect((await app.call('GET /sys/menu/authority', null, token)).code).toBe(200);
    } finally {
      await app.close();
      await target.drop();
    }
  });

  it('runs on PostgreSQL too (where no integer column can hold a non-finite value)', async () => {
    if (!process.env.TEST_DATABASE_URL) return;
    const target = await createTestDatabase('postgres');
    const handle = await openDatabase({ url: target.url, sqliteFile: target.sqliteFile });
    const names = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(handle.db);
    expect(names.rows.map((row) => row.name)).toContain('003_finite_numbers');
    await handle.close();
    await target.drop();
  });
});
