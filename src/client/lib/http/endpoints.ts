/**
 * Typed helpers so a feature declares an endpoint in one line, checked against the contract:
 *
 *   inquire: postQuery(build, '/sys/user/inquire', { providesTags: ['User'] }),
 *   create: postMutation(build, '/sys/user/creation', { invalidatesTags: ['User'] }),
 *
 * Queries answer the envelope's `data`; mutations answer the whole envelope, whose msg is the
 * success toast. Only types come from the contract, so no schema code reaches the browser.
 */
import type { EndpointBuilder, MutationExtraOptions, QueryExtraOptions } from '@reduxjs/toolkit/query';

import type { BodyOf, Contract, DataOf, EndpointKey } from '../../../contract';
import type { Envelope } from '../../../contract/envelope';
import type { HttpBaseQuery, TagType } from './api';
import type { HttpRequest } from './base-query';
import type { HttpExtraOptions } from './errors';

/** JSON endpoints of a method; file transfers (downloads, uploads) have their own helpers. */
type KeyWithMethod<M> = { [K in EndpointKey]: Contract[K] extends { transport: string } ? never : Contract[K]['method'] extends M ? K : never }[EndpointKey];
export type PostKey = KeyWithMethod<'POST'>;
export type GetKey = KeyWithMethod<'GET'>;
type KeyWithTransport<T> = { [K in EndpointKey]: Contract[K] extends { transport: T } ? K : never }[EndpointKey];
/** Endpoints answering a file (download.ts). */
export type DownloadKey = KeyWithTransport<'download'>;
/** Endpoints taking a file (upload.ts). */
export type UploadKey = KeyWithTransport<'upload'>;

type Build = EndpointBuilder<HttpBaseQuery, TagType, 'api'>;

/** The URL path of an endpoint key ("GET /x" -> "/x", src/contract/index.ts). */
export const pathOf = (key: EndpointKey): string => key.replace(/^GET /, '');

export function post<K extends PostKey>(key: K, body: BodyOf<K>): HttpRequest {
  return { url: pathOf(key), method: 'POST', body: body ?? {} };
}

/** The generic GET helper (docs/client.md, HTTP): a path and its query params; answers code, msg and data. */
export function get<K extends GetKey>(key: K, params: BodyOf<K>): HttpRequest {
  return { url: pathOf(key), method: 'GET', params: params ?? undefined };
}

type QueryOptions<K extends EndpointKey> = Omit<QueryExtraOptions<TagType, DataOf<K>, BodyOf<K>, HttpBaseQuery, 'api'>, 'type' | 'extraOptions'> & {
  extraOptions?: HttpExtraOptions;
};

type MutationOptions<K extends PostKey> = Omit<MutationExtraOptions<TagType, Envelope<DataOf<K>>, BodyOf<K>, HttpBaseQuery, 'api'>, 'type' | 'extraOptions'> & {
  extraOptions?: HttpExtraOptions;
};

/** A POST query answering the envelope's data. */
export function postQuery<K extends PostKey>(build: Build, key: K, options: QueryOptions<K> = {}) {
  return build.query<DataOf<K>, BodyOf<K>>({ query: (body) => post(key, body), transformResponse: (envelope: Envelope<unknown>) => envelope.data as DataOf<K>, ...options });
}

/** A GET helper query answering the envelope's data. */
export function getQuery<K extends GetKey>(build: Build, key: K, options: QueryOptions<K> = {}) {
  return build.query<DataOf<K>, BodyOf<K>>({ query: (params) => get(key, params), transformResponse: (envelope: Envelope<unknown>) => envelope.data as DataOf<K>, ...options });
}

/**
 * A GET query taking its endpoint key as argument, for one answer read at several paths (each
 * screen's picker, src/contract/pickers.ts): the cache holds one entry per path, named by it.
 */
export function keyedGetQuery<K extends GetKey>(build: Build, providesTags: TagType[]) {
  return build.query<DataOf<K>, K>({
    query: (key) => ({ url: pathOf(key), method: 'GET' }),
    transformResponse: (envelope: Envelope<unknown>) => envelope.data as DataOf<K>,
    providesTags,
  });
}

/** A POST mutation answering the whole envelope (its msg is what success toasts show). */
export function postMutation<K extends PostKey>(build: Build, key: K, options: MutationOptions<K> = {}) {
  return build.mutation<Envelope<DataOf<K>>, BodyOf<K>>({
    query: (body) => post(key, body),
    ...options,
  });
}
