/**
 * The access cache (plugins/app/access-cache.ts): the authorization hook's copy of the org tree,
 * custom-scope units and role grants is used between changes and follows every change at the
 * caller's next request: a unit moved out of a region, a grant revoked, a role disabled or
 * narrowed, a resource's path moved. On PostgreSQL, a second instance on the same database follows
 * a change made on the first once its announcement arrives, and an instance whose listening
 * connection breaks, or goes unproven, reads from the database rather than serve its copy.
 */
import { sql, type Transaction } from 'kysely';
import { describeOnEachDatabase, describeOnPostgres, postgresHandles, twoInstances, type TestApp } from './support/harness';
import { USER_PASSWORD, expectOk, menuGrants, resourceId } from './support/sys-fixtures';
import { ACCESS_CHANNEL, ACCESS_LEASE_MS, AccessCache } from '../../src/server/plugins/app/access-cache';
import type { DataScopeKind } from '../../src/contract/constants';
import type { Database } from '../../src/server/db/schema';

const FORBIDDEN = { code: 403, msg: '没有权限执行该操作', data: null } as const;

/** Signs in a user of a new role of `dataScope` holding the device screen, placed at `orgId`. */
async function deviceOperator(t: TestApp, admin: string, name: string, orgId: number, dataScope: DataScopeKind, scopeOrgIds?: number[]) {
  const role = expectOk(await t.call('/sys/role/creation', { name, remark: '', state: 1, dataScope, ...(scopeOrgIds ? { scopeOrgIds } : {}) }, admin));
  expectOk(await t.call('/sys/role/auth', { roleId: role.id, grant: await menuGrants(t, '/hotel/device'), revoke: [] }, admin));
  expectOk(await t.call('/sys/user/creation', { userName: name, nickName: name, password: USER_PASSWORD, state: 1, roleId: role.id, orgId }, admin));
  return { role, token: await t.login(name, USER_PASSWORD) };
}

/** The serial numbers of the devices `token` is shown, of those starting with `prefix`. */
async function visibleDevices(t: TestApp, token: string, prefix: string): Promise<string[]> {
  const page = expectOk(await t.call('/hotel/device/inquire', { size: 100, current: 1, params: { sn: prefix } }, token));
  return page.records.map((device) => device.sn).sort();
}

/** A fixed tree under the root: regions R1 (hotels A, B) and R2 (hotel C), with a device in each hotel. */
async function group(t: TestApp, admin: string, tag: string) {
  const root = expectOk(await t.call('GET /sys/org/tree', null, admin)).find((unit) => unit.pid === null)!.id;
  const unit = async (pid: number, name: string, kind: string) =>
    expectOk(await t.call('/sys/org/creation', { pid, name: `${tag}${name}`, kind, code: `${tag}-${name}`, state: 1, sort: 0, remark: '' }, admin));
  const R1 = await unit(root, 'R1', 'region');
  const R2 = await unit(root, 'R2', 'region');
  const A = await unit(R1.id, 'A', 'hotel');
  const B = await unit(R1.id, 'B', 'hotel');
  const C = await unit(R2.id, 'C', 'hotel');
  for (const [hotel, orgId] of [
    ['A', A.id],
    ['B', B.id],
    ['C', C.id],
  ] as const)
    expectOk(await t.call('/hotel/device/creation', { name: `${tag} ${hotel}`, sn: `${tag}-${hotel}`, type: 'lock', locationId: null, orgId, state: 1, remark: '' }, admin));
  return { root, R1, R2, A, B, C };
}

const editUnit = (
  unit: { id: number; pid: number | null; name: string; kind: string; code: string; state: number; sort: number; remark: string; version: number },
  pid: number,
) => ({
  id: unit.id,
  pid,
  name: unit.name,
  kind: unit.kind,
  code: unit.code,
  state: unit.state,
  sort: unit.sort,
  remark: unit.remark,
  version: unit.version,
});

describeOnEachDatabase('access cache', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });

  it("takes a unit moved out of a region out of the region caller's scope at the next request, and a unit added into it", async () => {
    const t = ctx();
    const { R1, R2, A } = await group(t, admin, 'MV');
    const region = await deviceOperator(t, admin, 'mv.region', R1.id, 'orgAndBelow');
    expect(await visibleDevices(t, region.token, 'MV-')).toEqual(['MV-A', 'MV-B']);

    expectOk(await t.call('/sys/org/edit', editUnit(A, R2.id), admin));
    expect(await visibleDevices(t, region.token, 'MV-')).toEqual(['MV-B']);

    const D = expectOk(await t.call('/sys/org/creation', { pid: R1.id, name: 'MV-D', kind: 'hotel', code: 'MV-D', state: 1, sort: 0, remark: '' }, admin));
    expectOk(await t.call('/hotel/device/creation', { name: 'MV D', sn: 'MV-D', type: 'lock', locationId: null, orgId: D.id, state: 1, remark: '' }, admin));
    expect(await visibleDevices(t, region.token, 'MV-')).toEqual(['MV-B', 'MV-D']);
  });

  it('refuses a revoked grant at the next request', async () => {
    const t = ctx();
    const { A } = await group(t, admin, 'RV');
    const operator = await deviceOperator(t, admin, 'rv.hotel', A.id, 'org');
    expect(await visibleDevices(t, operator.token, 'RV-')).toEqual(['RV-A']);

    const inquire = await resourceId(t, '/hotel/device/inquire');
    expectOk(await t.call('/sys/role/auth', { roleId: operator.role.id, grant: [], revoke: [{ type: 'resource', resource: inquire }] }, admin));
    expect(await t.call('/hotel/device/inquire', { size: 20, current: 1 }, operator.token)).toEqual(FORBIDDEN);

    expectOk(await t.call('/sys/role/auth', { roleId: operator.role.id, grant: [{ type: 'resource', resource: inquire }], revoke: [] }, admin));
    expect(await visibleDevices(t, operator.token, 'RV-')).toEqual(['RV-A']);
  });

  it("applies a role's narrowed scope, custom units and disabling at once", async () => {
    const t = ctx();
    const { R1, A, B, C } = await group(t, admin, 'NR');
    const operator = await deviceOperator(t, admin, 'nr.region', R1.id, 'orgAndBelow');
    const custom = await deviceOperator(t, admin, 'nr.custom', A.id, 'custom', [A.id, C.id]);
    expect(await visibleDevices(t, operator.token, 'NR-')).toEqual(['NR-A', 'NR-B']);
    expect(await visibleDevices(t, custom.token, 'NR-')).toEqual(['NR-A', 'NR-C']);

    const edit = async (role: { id: number; name: string; version: number }, changes: { state?: number; dataScope?: DataScopeKind; scopeOrgIds?: number[] }) =>
      expectOk(await t.call('/sys/role/edit', { id: role.id, name: role.name, remark: '', state: 1, version: role.version, ...changes }, admin));
    const narrowed = await edit(operator.role, { dataScope: 'org' });
    expect(await visibleDevices(t, operator.token, 'NR-')).toEqual([]);
    await edit(narrowed, { dataScope: 'orgAndBelow' });
    expect(await visibleDevices(t, operator.token, 'NR-')).toEqual(['NR-A', 'NR-B']);

    const customNarrowed = await edit(custom.role, { dataScope: 'custom', scopeOrgIds: [B.id] });
    expect(await visibleDevices(t, custom.token, 'NR-')).toEqual(['NR-B']);

    await edit(customNarrowed, { state: 0 });
    expect((await t.call('/hotel/device/inquire', { size: 20, current: 1 }, custom.token)).code).toBe(401);
  });

  it("follows a resource's API path moved elsewhere at the next request", async () => {
    const t = ctx();
    const { A } = await group(t, admin, 'RP');
    const operator = await deviceOperator(t, admin, 'rp.hotel', A.id, 'org');
    expect(await visibleDevices(t, operator.token, 'RP-')).toEqual(['RP-A']);
    const menu = (await menuGrants(t, '/hotel/device'))[0].resource;
    const resource = expectOk(await t.call('/sys/resource/inquire', { menuId: menu }, admin)).find((item) => item.path === '/hotel/device/inquire')!;
    const movePath = async (item: typeof resource, path: string) =>
      expectOk(await t.call('/sys/resource/edit', { id: item.id, name: item.name, type: item.type, path, remark: item.remark, version: item.version }, admin));
    const moved = await movePath(resource, '/hotel/device/inquireMoved');
    expect(await t.call('/hotel/device/inquire', { size: 20, current: 1 }, operator.token)).toEqual({ code: 403, msg: '接口未登记为资源，拒绝访问', data: null });
    await movePath(moved, '/hotel/device/inquire');
    expect(await visibleDevices(t, operator.token, 'RP-')).toEqual(['RP-A']);
  });

  it('keeps the copy as it was when a change is rolled back', async () => {
    const t = ctx();
    const { R1, A } = await group(t, admin, 'RB');
    const region = await deviceOperator(t, admin, 'rb.region', R1.id, 'orgAndBelow');
    await expect(
      t.app.access.change(async (trx) => {
        await trx.deleteFrom('sysOrg').where('id', '=', A.id).execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await visibleDevices(t, region.token, 'RB-')).toEqual(['RB-A', 'RB-B']);
  });
});

describeOnPostgres('access cache across instances', () => {
  const instances = twoInstances();

  /** Asks until `ask` answers `expected` (its announcement has arrived), or fails past the deadline. */
  async function eventually(ask: () => Promise<unknown>, expected: unknown, deadlineMs = 10_000): Promise<void> {
    const until = Date.now() + deadlineMs;
    let last = await ask();
    while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      last = await ask();
    }
    expect(last).toEqual(expected);
  }

  it('brings a unit moved and a grant revoked on instance A to instance B once the announcement arrives', async () => {
    const { a, b } = instances();
    const admin = await a.login();
    const { R1, R2, A } = await group(a, admin, 'XI');
    const region = await deviceOperator(a, admin, 'xi.region', R1.id, 'orgAndBelow');
    // B's copy holds the tree and the role's grants from here on.
    expect(await visibleDevices(b, region.token, 'XI-')).toEqual(['XI-A', 'XI-B']);

    expectOk(await a.call('/sys/org/edit', editUnit(A, R2.id), admin));
    await eventually(() => visibleDevices(b, region.token, 'XI-'), ['XI-B']);

    const inquire = await resourceId(a, '/hotel/device/inquire');
    expectOk(await a.call('/sys/role/auth', { roleId: region.role.id, grant: [], revoke: [{ type: 'resource', resource: inquire }] }, admin));
    await eventually(() => b.call('/hotel/device/inquire', { size: 20, current: 1 }, region.token), FORBIDDEN);
  }, 30_000);

  it('reads from the database, not its copy, once its listening connection breaks', async () => {
    const { a, b } = instances();
    const admin = await a.login();
    const { R1, C } = await group(a, admin, 'LC');
    const region = await deviceOperator(a, admin, 'lc.region', R1.id, 'orgAndBelow');
    expect(await visibleDevices(b, region.token, 'LC-')).toEqual(['LC-A', 'LC-B']);

    // Every instance's listening connection is cut; then the tree changes with no announcement, as
    // if one had been sent while nobody listened.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = ${`listen:${ACCESS_CHANNEL}`}`.execute(
      b.database.db,
    );
    await b.database.db.updateTable('sysOrg').set({ pid: R1.id }).where('id', '=', C.id).execute();
    await eventually(() => visibleDevices(b, region.token, 'LC-'), ['LC-A', 'LC-B', 'LC-C']);
  }, 30_000);
});

describeOnPostgres('access cache without a proven listener', () => {
  const open = postgresHandles();
  let cache: AccessCache;
  let onHealth: (provenAt: number | null) => void;
  let db: Awaited<ReturnType<typeof open>>['db'];
  let hotel: number;
  let region: number;

  beforeAll(async () => {
    const handle = await open({});
    db = handle.db;
    // The channel is played by the test: it says when the connection is proven or broken.
    cache = new AccessCache({
      db: handle.db,
      dialect: handle.dialect,
      listen: (_channel, _onNotify, health) => {
        onHealth = health!;
        return Promise.resolve(() => Promise.resolve());
      },
    });
    await cache.start();
    const root = (await db.selectFrom('sysOrg').select('id').where('pid', 'is', null).executeTakeFirstOrThrow()).id;
    const now = Date.now();
    const add = (pid: number, name: string) =>
      db
        .insertInto('sysOrg')
        .values({ pid, name, kind: 'hotel', code: name, state: 1, sort: 0, remark: '', createdAt: now, updatedAt: now })
        .returning('id')
        .executeTakeFirstOrThrow();
    region = (await add(root, 'LR')).id;
    hotel = (await add(region, 'LH')).id;
  });
  afterAll(() => cache.stop());

  const regionScope = async () => [...(await cache.scopeOf({ userId: 1, orgId: region, roleId: 1, builtin: false, dataScope: 'orgAndBelow' })).orgIds].sort();
  /** A unit added past `change`: only a copy not in use shows it. */
  const unannounced = async (name: string) => {
    const now = Date.now();
    return (
      await db
        .insertInto('sysOrg')
        .values({ pid: hotel, name, kind: 'department', code: name, state: 1, sort: 0, remark: '', createdAt: now, updatedAt: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  };

  it('uses its copy while proven, reads the database while broken or past its lease, and drops the copy when proven again', async () => {
    onHealth(Date.now());
    expect(await regionScope()).toEqual([region, hotel].sort());
    // Proven: the copy is used (what makes the cache worth having).
    const first = await unannounced('LD1');
    expect(await regionScope()).toEqual([region, hotel].sort());

    onHealth(null);
    expect(await regionScope()).toEqual([region, hotel, first].sort());
    const second = await unannounced('LD2');
    expect(await regionScope()).toEqual([region, hotel, first, second].sort());

    // Proven again: the copy read while broken was not kept.
    onHealth(Date.now());
    expect(await regionScope()).toEqual([region, hotel, first, second].sort());

    // The last proof is older than the lease: an announcement may have gone unheard.
    onHealth(Date.now() - ACCESS_LEASE_MS - 1);
    const third = await unannounced('LD3');
    expect(await regionScope()).toEqual([region, hotel, first, second, third].sort());
    // Proven after the lease ran out: the copy from before is not trusted.
    onHealth(Date.now());
    expect(await regionScope()).toEqual([region, hotel, first, second, third].sort());
  });

  it('reads from the database, and keeps nothing, while a change of this instance is under way', async () => {
    onHealth(Date.now());
    const before = await regionScope();
    await cache.change(async (trx: Transaction<Database>) => {
      const now = Date.now();
      await trx.insertInto('sysOrg').values({ pid: hotel, name: 'LD4', kind: 'department', code: 'LD4', state: 1, sort: 0, remark: '', createdAt: now, updatedAt: now }).execute();
      // Another request meanwhile sees the tree as committed: without this change, read now and not kept.
      expect(await regionScope()).toEqual(before);
      const aside = await unannounced('LD5');
      expect(await regionScope()).toEqual([...before, aside].sort());
    });
    expect(await regionScope()).toHaveLength(before.length + 2);
  });
});
