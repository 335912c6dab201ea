/**
 * The one authorization hook (docs/architecture.md, access control). Before any handler runs it
 * checks the route's access level: session routes need a live session; resource routes also need
 * the caller's role to hold the resource whose path is the route's path, from the access cache,
 * which a change of grants empties at once (access-cache.ts). A route that declares no access, or whose path
 * no resource guards, is refused: the hook fails closed. The plugin also keeps the table of API
 * routes with their access levels (`app.apiRoutes`), so tests can check every route against every
 * kind of caller.
 */
import crypto from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, sessionEnded, unauthorized } from '../../lib/errors';
import type { Access } from '../../lib/route';
import type { Sessions } from './sessions';

const API_PREFIX = '/api';

export interface ApiRoute {
  method: string;
  url: string;
  access: Access | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered under /api, as the authorization hook sees it. */
    apiRoutes: readonly ApiRoute[];
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** Metrics are never public: with no token configured nobody reads them; a wrong token is refused. */
function checkMetricsToken(token: string | null, expected: string | undefined): void {
  if (!expected) throw forbidden('未配置监控令牌（METRICS_TOKEN），指标不对外开放');
  const given = Buffer.from(token ?? '');
  const wanted = Buffer.from(expected);
  if (given.length !== wanted.length || !crypto.timingSafeEqual(given, wanted)) throw unauthorized('监控令牌无效');
}

export const authorizationPlugin = fp((app: FastifyInstance, options: { sessions: Sessions }, done: () => void) => {
  app.decorateRequest('user', null);
  app.decorateRequest('dataScope', null);
  const apiRoutes: ApiRoute[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    for (const method of ([] as string[]).concat(route.method)) {
      apiRoutes.push({ method, url: route.url, access: route.config?.access });
    }
  });

  app.addHook('onRequest', async (request) => {
    // Unmatched URLs are answered by the not-found handler, which reveals nothing; the SPA's
    // files outside /api are public.
    if (request.is404 || !request.routeOptions.url?.startsWith(API_PREFIX)) return;
    const access = request.routeOptions.config.access;
    if (access === 'public') return;
    if (access === 'metrics') return checkMetricsToken(bearerToken(request), app.config.metricsToken);
    if (access !== 'session' && access !== 'resource') throw forbidden('接口未登记访问级别，拒绝访问');

    const token = bearerToken(request);
    if (!token) throw unauthorized('请先登录');
    const user = await options.sessions.resolve(token);
    if (!user) {
      // A session the server ended says why (force logout, expiry, ...); an unknown token does not.
      const end = await options.sessions.endOf(token);
      throw end ? sessionEnded(end) : unauthorized();
    }
    request.user = user;
    // Once per request, from the session's user and role: routes pass it to scoped reads and writes.
    request.dataScope = await app.access.scopeOf(user);
    if (access === 'session' || user.builtin) return;

    const check = await app.access.resource(user.roleId, (request.routeOptions.url ?? '').slice(API_PREFIX.length));
    if (!check.guarded) throw forbidden('接口未登记为资源，拒绝访问');
    if (!check.granted) throw forbidden('没有权限执行该操作');
  });
  done();
});
