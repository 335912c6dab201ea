/**
 * An endpoint is a path plus its request and answer schemas. The server registers routes from these
 * (validation + serialisation); the client takes only their types, so no schema code ships to the
 * browser.
 */
import type { Static, TSchema } from '@sinclair/typebox';

export interface EndpointSpec<B extends TSchema | null = TSchema | null, D extends TSchema = TSchema> {
  method: 'POST' | 'GET';
  /** POST: the JSON body; GET: the query string. */
  body: B;
  data: D;
}

export const post = <B extends TSchema, D extends TSchema>(body: B, data: D) =>
  ({ method: 'POST', body, data }) as const satisfies EndpointSpec<B, D>;
export const postEmpty = <D extends TSchema>(data: D) =>
  ({ method: 'POST', body: null, data }) as const satisfies EndpointSpec<null, D>;
export const get = <Q extends TSchema | null, D extends TSchema>(query: Q, data: D) =>
  ({ method: 'GET', body: query, data }) as const satisfies EndpointSpec<Q, D>;

export type BodyOfSpec<E> = E extends { body: infer B } ? (B extends TSchema ? Static<B> : void) : never;
export type DataOfSpec<E> = E extends { data: infer D extends TSchema } ? Static<D> : never;

/** The URL path under /api for an endpoint key ("GET /x" -> "/x"). */
export const pathOfKey = (key: string): string => key.replace(/^GET /, '');
