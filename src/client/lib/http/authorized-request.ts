/**
 * The one authorised request path: the RTK Query base query, file downloads and file uploads all
 * send through `requestApi`. It adds `Authorization: Bearer <token>` to every call but the sign-in
 * and reads what comes back the same way for all three:
 * - an envelope with code 200 is the answer;
 * - any other code is a refusal: its msg is the one error toast (docs/API.md, Answers), and code
 *   401 ends the session (`session/ended`, reason `unauthorized`, with the server's reason for the
 *   sign-in page when it names one), which sends the user to the login;
 * - a transport failure (network, timeout, an HTTP status) gets a generic Chinese toast; a request
 *   the caller aborted gets none.
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import type { AxiosRequestConfig, RawAxiosResponseHeaders, AxiosResponseHeaders } from 'axios';

import { Code, LOGIN_PATH, type Envelope } from '../../../contract/envelope';
import { selectToken, sessionEnded, type SessionRoot } from '../session';
import { toast } from '../toast';
import { httpClient } from './client';
import { DEFAULT_FAILURE_MSG, NETWORK_FAILURE_MSG, isEnvelope, toTransportError, transportMessage, type HttpError, type HttpExtraOptions } from './errors';

/** What a request needs from the store (which always holds the session): the token, and dispatch to end the session with. */
export interface SessionAccess {
  getState: () => unknown;
  dispatch: (action: UnknownAction) => unknown;
}

/**
 * What the caller expects back: an `envelope` (JSON calls), a `document` (a JSON answer of its own,
 * such as the OpenAPI description), or a `file` (a blob; a refusal still arrives as a JSON envelope).
 */
export type Expected = 'envelope' | 'document' | 'file';

export interface ApiRequest extends AxiosRequestConfig {
  url: string;
  expect: Expected;
}

export interface RequestOptions extends HttpExtraOptions {
  /** Toast text for an HTTP status, instead of the generic one (e.g. 413 for an upload). */
  statusMsgs?: Readonly<Record<number, string>>;
}

export type ApiResult<T> =
  | { envelope: Envelope<unknown> }
  | { body: T; headers: RawAxiosResponseHeaders | AxiosResponseHeaders }
  /** Already toasted; a 401 has already ended the session. */
  | { error: HttpError };

/** A JSON file that is not an envelope cannot be read as a refusal with a message of its own. */
const UNREADABLE_REFUSAL: Envelope<null> = { code: Code.internal, msg: '', data: null };

async function envelopeOf(body: unknown, expect: Expected, contentType: string): Promise<unknown> {
  if (expect !== 'file' || !(body instanceof Blob)) return body;
  if (!contentType.includes('application/json')) return undefined;
  const parsed: unknown = JSON.parse(await body.text());
  return isEnvelope(parsed) ? parsed : UNREADABLE_REFUSAL;
}

export async function requestApi<T = unknown>(session: SessionAccess, { expect, ...request }: ApiRequest, options: RequestOptions = {}): Promise<ApiResult<T>> {
  const token = request.url === LOGIN_PATH ? '' : selectToken(session.getState() as SessionRoot);
  let answer: { data: unknown; headers: RawAxiosResponseHeaders | AxiosResponseHeaders };
  let envelope: unknown;
  try {
    answer = await httpClient.request({ ...request, headers: { ...request.headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
    envelope = await envelopeOf(answer.data, expect, String(answer.headers['content-type'] ?? ''));
  } catch (error) {
    const failure = toTransportError(error);
    if (!request.signal?.aborted) toast.error((typeof failure.status === 'number' && options.statusMsgs?.[failure.status]) || transportMessage(failure));
    return { error: failure };
  }
  if (!isEnvelope(envelope)) {
    if (expect !== 'envelope' && typeof answer.data === 'object' && answer.data !== null) return { body: answer.data as T, headers: answer.headers };
    toast.error(NETWORK_FAILURE_MSG);
    return { error: { status: 'FETCH_ERROR', data: answer.data, error: 'response is not an envelope' } };
  }
  if (envelope.code === Code.ok) return { envelope };
  if (!(options.inlineRefusals && envelope.code === Code.invalid)) toast.error(options.failureMsg ?? (envelope.msg || options.fallbackMsg || DEFAULT_FAILURE_MSG));
  if (envelope.code === Code.unauthorized) session.dispatch(sessionEnded({ reason: 'unauthorized', notice: envelope.reason && { reason: envelope.reason, msg: envelope.msg } }));
  return { error: { status: envelope.code, data: envelope } };
}
