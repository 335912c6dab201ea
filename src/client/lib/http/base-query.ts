/**
 * The RTK Query base query: the envelope protocol (docs/API.md) over the one authorised request
 * path (authorized-request.ts). Code 200 returns the whole envelope (mutations toast its msg;
 * queries `transformResponse` to `.data`); any other code is the error `{ status: code, data:
 * envelope }`, its msg already the one error toast. Network and HTTP failures reach the caller as
 * they came, with a generic Chinese toast.
 */
import type { BaseQueryFn } from '@reduxjs/toolkit/query';

import { Code, type Envelope } from '../../../contract/envelope';
import { requestApi } from './authorized-request';
import type { HttpError, HttpExtraOptions } from './errors';

export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST';
  /** POST: the JSON body. */
  body?: unknown;
  /** GET: the query string. */
  params?: Record<string, unknown>;
  /**
   * The answer is a JSON document of its own (the OpenAPI description), not an envelope: it comes
   * back wrapped in one, so queries read it as `data`. A refusal is still an envelope.
   */
  document?: boolean;
}

export const httpBaseQuery: BaseQueryFn<HttpRequest, Envelope<unknown>, HttpError, HttpExtraOptions> = async (request, store, extraOptions = {}) => {
  const result = await requestApi(
    store,
    {
      url: request.url,
      method: request.method,
      data: request.method === 'POST' ? (request.body ?? {}) : undefined,
      params: request.params,
      signal: store.signal,
      expect: request.document ? 'document' : 'envelope',
    },
    extraOptions,
  );
  if ('error' in result) return { error: result.error };
  if ('body' in result) return { data: { code: Code.ok, msg: '', data: result.body } };
  return { data: result.envelope };
};
