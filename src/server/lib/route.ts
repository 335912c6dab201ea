/**
 * Registers a route from its contract entry: the request schema validates, the answer schema
 * serialises (so nothing outside the contract leaves the server), and the access level feeds the
 * authorization hook. Handlers return the envelope through `ok()`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { contract, type BodyOf, type Contract, type DataOf, type EndpointKey } from '../../contract';
import { pathOfKey, type EndpointSpec } from '../../contract/endpoint';
import { Code, type Envelope } from '../../contract/constants';
import type { DataScope } from './data-scope';

/**
 * public: anyone (login, device heartbeat — which checks its own device key; health probes);
 * session: any signed-in user; resource: a signed-in user whose role holds the route's resource;
 * metrics: a scraper holding METRICS_TOKEN (never a staff session).
 */
export type Access = 'public' | 'session' | 'resource' | 'metrics';

/**
 * Called by machines many times a second (devices, load balancers, scrapers): their request lines
 * are logged at `config.hotPathLogLevel` (default warn), so an info log stays readable and cheap.
 */
const HOT_PATHS: ReadonlySet<EndpointKey> = new Set<EndpointKey>(['/hotel/device/heartbeat', '/hotel/device/gateway/heartbeat', 'GET /healthz', 'GET /readyz', 'GET /metrics']);

export interface SessionUser {
  sessionId: number;
  userId: number;
  userName: string;
  nickName: string;
  roleId: number;
  roleName: string;
  /** The built-in administrator role holds every grant. */
  builtin: boolean;
  /** The user's unit and their role's data scope, from which the request's DataScope is built. */
  orgId: number | null;
  dataScope: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    /** The caller's data scope, built once by the authorization hook (lib/data-scope.ts). */
    dataScope: DataScope | null;
  }
}

type Transport<K extends EndpointKey> = Contract[K] extends { transport: infer T } ? T : 'json';

/** An upload's body is the file (a Buffer, from the content-type parser) and its options the query. */
export type ApiRequest<K extends EndpointKey> = FastifyRequest & (Transport<K> extends 'upload' ? { body: unknown; query: BodyOf<K> } : { body: BodyOf<K>; query: BodyOf<K> });
/** A download sends its file on the reply and answers the reply; everything else answers the envelope. */
type Answer<K extends EndpointKey> = Transport<K> extends 'download' ? FastifyReply : Envelope<DataOf<K>>;
/** Fastify sends what a handler returns, whether or not it had to wait for it. */
export type Handler<K extends EndpointKey> = (request: ApiRequest<K>, reply: FastifyReply) => Answer<K> | Promise<Answer<K>>;

export const ok = <T>(data: T, msg = '操作成功'): Envelope<T> => ({ code: Code.ok, msg, data });

/** The signed-in user of a session- or resource-level route (the hook guarantees it). */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new Error('currentUser() used on a public route');
  return request.user;
}

/** The data scope of a session- or resource-level route's caller (the hook builds it). */
export function currentScope(request: FastifyRequest): DataScope {
  if (!request.dataScope) throw new Error('currentScope() used on a public route');
  return request.dataScope;
}

const transportOf = (spec: EndpointSpec) => spec.transport ?? 'json';

export function defineRoute<K extends EndpointKey>(app: FastifyInstance, key: K, access: Access, handler: Handler<K>): void {
  const spec: EndpointSpec = contract[key];
  const input = spec.body;
  app.route({
    method: spec.method,
    url: pathOfKey(key),
    // The endpoint key lets the audit hook read the route's contract entry (plugins/app/audit.ts).
    config: { access, endpoint: key },
    ...(HOT_PATHS.has(key) ? { logLevel: app.config.hotPathLogLevel } : {}),
    schema: {
      // Endpoints without input declare no input schema (their input is ignored); an upload's
      // schema describes its query string, its body being the file.
      ...(input === null ? {} : spec.method === 'GET' || transportOf(spec) === 'upload' ? { querystring: input } : { body: input }),
      response: { 200: Type.Object({ code: Type.Integer(), msg: Type.String(), data: spec.data }) },
    },
    // Tracked, so shutdown lets it finish even when its client has gone (lib/in-flight.ts).
    handler: (request: FastifyRequest, reply: FastifyReply) =>
      app.inFlight.track(new Promise((resolve) => resolve((handler as unknown as (q: FastifyRequest, r: FastifyReply) => unknown)(request, reply)))),
  });
}
