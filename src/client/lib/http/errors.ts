/**
 * What a call to the API can answer besides success, and the Chinese messages shown for it. The
 * envelope protocol is docs/API.md's: every business outcome is HTTP 200 with `{ code, msg, data }`.
 */
import { isAxiosError } from 'axios';

import type { Envelope } from '../../../contract/envelope';

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

/** How a call's failures are toasted (RTK Query endpoints pass them as `extraOptions`). */
export interface HttpExtraOptions {
  /** Toast text when the server answers a failure without msg. */
  fallbackMsg?: string;
  /** Toast text shown for any business failure, whatever the server says. */
  failureMsg?: string;
  /**
   * A refusal of the input (code 400) is shown by the screen where the input is (e.g. under the
   * cron being typed), not toasted: a toast would outlive the mistake once it is fixed.
   */
  inlineRefusals?: boolean;
}

export const DEFAULT_FAILURE_MSG = '操作失败';
export const NETWORK_FAILURE_MSG = '网络异常，请检查网络连接后重试';
export const TIMEOUT_FAILURE_MSG = '请求超时，请稍后重试';

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
