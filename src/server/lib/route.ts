/**
 * Registers a route from its contract entry: the request schema validates, the answer schema
 * serialises (so nothing outside the contract leaves the server), and the access level feeds the
 * authorization hook. Handlers return the envelope through `ok()`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { contract, type BodyOf, type DataOf, type EndpointKey } from '../../contract';
import { pathOfKey } from '../../contract/endpoint';
import { Code, type Envelope } from '../../contract/constants';

/**
 * public: anyone (login, device heartbeat — which checks its own device key);
 * session: any signed-in user; resource: a signed-in user whose role holds the route's resource.
 */
export type Access = 'public' | 'session' | 'resource';

export interface SessionUser {
  sessionId: number;
  userId: number;
  userName: string;
  nickName: string;
  roleId: number;
  roleName: string;
  /** The built-in administrator role holds every grant. */
  builtin: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

export type ApiRequest<K extends EndpointKey> = FastifyRequest & { body: BodyOf<K>; query: BodyOf<K> };
export type Handler<K extends EndpointKey> = (request: ApiRequest<K>, reply: FastifyReply) => Promise<Envelope<DataOf<K>>>;

export const ok = <T>(data: T, msg = '操作成功'): Envelope<T> => ({ code: Code.ok, msg, data });

/** The signed-in user of a session- or resource-level route (the hook guarantees it). */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new Error('currentUser() used on a public route');
  return request.user;
}

export function defineRoute<K extends EndpointKey>(app: FastifyInstance, key: K, access: Access, handler: Handler<K>): void {
  const spec = contract[key];
  const input = spec.body;
  app.route({
    method: spec.method,
    url: pathOfKey(key),
    config: { access },
    schema: {
      // Endpoints without input declare no input schema (their input is ignored).
      ...(input === null ? {} : spec.method === 'GET' ? { querystring: input } : { body: input }),
      response: { 200: Type.Object({ code: Type.Integer(), msg: Type.String(), data: spec.data }) },
    },
    handler: handler as unknown as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}
