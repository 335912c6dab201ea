/**
 * Issue 8: every route the app has registered under /api, called by every kind of caller, answers
 * as its access level and the resource seeded for its path say it must. The routes come from the
 * app itself (app.apiRoutes, filled as routes register), so a route added later is covered
 * without anyone writing a test for it.
 *
 * Refused callers are answered 401/403 by the hook before any validation, so no valid body is
 * needed; permitted callers send an empty body and must get anything but 401/403 (usually a 400
 * from validation, so nothing is written). Each permitted call uses a fresh session, because
 * some routes (logout) end the session they are called with.
 */
import crypto from 'node:crypto';
import { describeOnEachDatabase, type TestApp } from './support/harness';
import { menuGrants, signedInOperator } from './support/sys-fixtures';
import { contract } from '../../src/contract';
import { pathOfKey } from '../../src/contract/endpoint';
import type { ApiRoute } from '../../src/server/plugins/app/authorization';

type Caller = 'anonymous' | 'forged token' | 'user with no role' | 'device-only role' | 'user-screen-only role' | 'administrator';
const CALLERS: Caller[] = ['anonymous', 'forged token', 'user with no role', 'device-only role', 'user-screen-only role', 'administrator'];

/** 401 and 403 are refusals; "permitted" means the hook let the call through. */
type Expected = 401 | 403 | 'permitted';

interface Identity {
  userId: number | null;
  roleId: number | null;
  builtin: boolean;
}

/** The routes worth calling: HEAD mirrors GET (same route, same hooks) and answers no body to read. */
const routesOf = (t: TestApp): ApiRoute[] => t.app.apiRoutes.filter((route) => route.method !== 'HEAD');

describeOnEachDatabase('authorization matrix', (ctx) => {
  const identities = new Map<Caller, Identity>();
  let grantsByRole: Map<number, Set<number>>;
  let resourceByPath: Map<string, number>;

  beforeAll(async () => {
    const t = ctx();
    const admin = await t.login();
    const { db } = t.database;
    const device = await signedInOperator(t, admin, 'matrix.device', await menuGrants(t, '/hotel/device'));
    const screen = await signedInOperator(t, admin, 'matrix.users', await menuGrants(t, '/sys/user'));
    const now = Date.now();
    // No-role users cannot sign in, so their session is made directly.
    const roleless = await db
      .insertInto('sysUser')
      .values({ userName: 'matrix.none', nickName: '无角色', passwordHash: 'x', state: 1, roleId: null, createdAt: now, updatedAt: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const adminRow = await db
      .selectFrom('sysUser as u')
      .innerJoin('sysRole as r', 'r.id', 'u.roleId')
      .select(['u.id', 'u.roleId'])
      .where('u.userName', '=', 'admin')
      .executeTakeFirstOrThrow();
    identities.set('anonymous', { userId: null, roleId: null, builtin: false });
    identities.set('forged token', { userId: null, roleId: null, builtin: false });
    identities.set('user with no role', { userId: roleless.id, roleId: null, builtin: false });
    identities.set('device-only role', { userId: device.user.id, roleId: device.role.id, builtin: false });
    identities.set('user-screen-only role', { userId: screen.user.id, roleId: screen.role.id, builtin: false });
    identities.set('administrator', { userId: adminRow.id, roleId: adminRow.roleId, builtin: true });

    const resources = await db.selectFrom('sysResource').select(['id', 'path']).where('path', '<>', '').execute();
    resourceByPath = new Map(resources.map((r) => [r.path, r.id]));
    const grants = await db.selectFrom('sysRoleAuth').select(['roleId', 'resource']).where('type', '=', 'resource').execute();
    grantsByRole = new Map();
    for (const grant of grants) grantsByRole.set(grant.roleId, (grantsByRole.get(grant.roleId) ?? new Set()).add(grant.resource));
  });

  function expected(route: ApiRoute, caller: Caller): Expected {
    const who = identities.get(caller)!;
    if (route.access === 'public') return 'permitted';
    // No caller here holds the metrics token: refused, as unconfigured (403) or as a wrong token (401).
    if (route.access === 'metrics') return ctx().config.metricsToken ? 401 : 403;
    if (route.access !== 'session' && route.access !== 'resource') return 403;
    if (who.userId === null || who.roleId === null) return 401;
    if (route.access === 'session' || who.builtin) return 'permitted';
    const resource = resourceByPath.get(route.url.slice('/api'.length));
    return resource !== undefined && grantsByRole.get(who.roleId)?.has(resource) ? 'permitted' : 403;
  }

  async function tokenOf(caller: Caller): Promise<string | null> {
    if (caller === 'anonymous') return null;
    if (caller === 'forged token') return crypto.randomBytes(32).toString('base64url');
    return ctx().app.sessions.issue(identities.get(caller)!.userId!, '127.0.0.1');
  }

  it('covers every endpoint of the contract', () => {
    const registered = new Set(routesOf(ctx()).map((route) => `${route.method} ${route.url}`));
    const missing = Object.entries(contract)
      .map(([key, spec]) => `${spec.method} /api${pathOfKey(key)}`)
      .filter((route) => !registered.has(route));
    expect(missing).toEqual([]);
  });

  it('guards every resource-level route with a seeded resource, so it can be granted', () => {
    const unguarded = routesOf(ctx())
      .filter((route) => route.access === 'resource' && !resourceByPath.has(route.url.slice('/api'.length)))
      .map((route) => route.url);
    expect(unguarded).toEqual([]);
  });

  it('answers every route x caller as its access level and resource say', async () => {
    const routes = routesOf(ctx());
    const mismatches: string[] = [];
    for (const route of routes) {
      for (const caller of CALLERS) {
        const token = await tokenOf(caller);
        const response = await ctx().app.inject({
          method: route.method as 'GET' | 'POST',
          url: route.url,
          headers: token ? { authorization: `Bearer ${token}` } : {},
          ...(route.method === 'POST' ? { payload: {} } : {}),
        });
        // A permitted download (an import template) answers its file, not the JSON envelope: it
        // was let through, which is what this test asks.
        const isJson = String(response.headers['content-type'] ?? '').startsWith('application/json');
        const { code } = isJson ? response.json<{ code: number }>() : { code: 0 };
        const want = expected(route, caller);
        const fits = want === 'permitted' ? code !== 401 && code !== 403 : code === want;
        if (response.statusCode !== 200 || !fits) mismatches.push(`${route.method} ${route.url} as ${caller}: HTTP ${response.statusCode}, code ${code}, expected ${want}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(routes.length * CALLERS.length).toBeGreaterThanOrEqual(Object.keys(contract).length * CALLERS.length);
    // Several hundred calls one after another: jest's 5 s default is a budget for one unit, not for
    // this sweep on a loaded two-core machine.
  }, 120_000);
});
