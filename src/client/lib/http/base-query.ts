/**
 * The RTK Query base query on axios. It speaks the envelope protocol (DESIGN 2): code 200 returns
 * the whole envelope (mutations toast its msg; queries `transformResponse` to `.data`), any other
 * code becomes `{ status: code, data: envelope }` and its msg the single error toast. Network and
 * HTTP failures reach the caller as they came, with a generic Chinese toast.
 */
import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import { isAxiosError } from 'axios';

import { Code, LOGIN_PATH, type Envelope } from '../../../contract/constants';
import { toast } from '../toast';
import { httpClient } from './client';

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

export interface HttpExtraOptions {
  /** Toast text when the server answers a failure without msg. */
  fallbackMsg?: string;
  /** Toast text shown for any business failure, whatever the server says. */
  failureMsg?: string;
}

/** A business failure: the envelope's code as status, the envelope itself as data. */
export interface BusinessError {
  status: number;
  data: Envelope<unknown>;
}

/** A transport failure: the HTTP status (or what stopped the request) and what came back. */
export interface TransportError {
  status: number | 'FETCH_ERROR' | 'TIMEOUT_ERROR';
  data: unknown;
  error: string;
}

export type HttpError = BusinessError | TransportError;

export const DEFAULT_FAILURE_MSG = '操作失败';
export const NETWORK_FAILURE_MSG = '网络异常，请检查网络连接后重试';
export const TIMEOUT_FAILURE_MSG = '请求超时，请稍后重试';

/** What the base query needs from the store: the signed-in token. */
interface SessionTokenState {
  session: { token: string };
}

export function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number';
}

export function isBusinessError(error: unknown): error is BusinessError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { status?: unknown }).status === 'number' &&
    isEnvelope((error as { data?: unknown }).data) &&
    !('error' in error)
  );
}

export function toTransportError(error: unknown): TransportError {
  if (isAxiosError(error)) {
    if (error.response) {
      return { status: error.response.status, data: error.response.data, error: error.message };
    }
    const timedOut = error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT';
    return { status: timedOut ? 'TIMEOUT_ERROR' : 'FETCH_ERROR', data: undefined, error: error.message };
  }
  return { status: 'FETCH_ERROR', data: undefined, error: String(error) };
}

export function transportMessage(error: TransportError): string {
  if (error.status === 'TIMEOUT_ERROR') return TIMEOUT_FAILURE_MSG;
  if (error.status === 'FETCH_ERROR') return NETWORK_FAILURE_MSG;
  return `服务器繁忙（HTTP ${error.status}），请稍后重试`;
}

export const httpBaseQuery: BaseQueryFn<HttpRequest, Envelope<unknown>, HttpError, HttpExtraOptions> = async (request, { getState, signal }, extraOptions = {}) => {
  const headers: Record<string, string> = {};
  if (request.url !== LOGIN_PATH) {
    const token = (getState() as SessionTokenState).session.token;
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  let body: unknown;
  try {
    const response = await httpClient.request({
      url: request.url,
      method: request.method,
      data: request.method === 'POST' ? (request.body ?? {}) : undefined,
      params: request.params,
      headers,
      signal,
    });
    body = response.data;
  } catch (error) {
    const transportError = toTransportError(error);
    toast.error(transportMessage(transportError));
    return { error: transportError };
  }
  if (request.document && typeof body === 'object' && body !== null && !isEnvelope(body)) return { data: { code: Code.ok, msg: '', data: body } };
  if (!isEnvelope(body)) {
    const malformed: TransportError = { status: 'FETCH_ERROR', data: body, error: 'response is not an envelope' };
    toast.error(NETWORK_FAILURE_MSG);
    return { error: malformed };
  }
  if (body.code === Code.ok) return { data: body };
  toast.error(extraOptions.failureMsg ?? (body.msg || extraOptions.fallbackMsg || DEFAULT_FAILURE_MSG));
  return { error: { status: body.code, data: body } };
};
