/**
 * The wire protocol every call shares: the answer envelope, its outcome codes and the sign-in path
 * exempt from the bearer header. Apart from the rest of constants.ts (which re-exports it) because
 * the client's entry chunk needs only this: the other constants load with the screens that use them.
 */

/** Business outcome codes carried in the envelope body (docs/API.md, answers); HTTP status stays 200. */
export const Code = {
  ok: 200,
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooManyAttempts: 429,
  internal: 500,
} as const;

/** A refusal of one field: its path in the request body (e.g. `name`, `params.days`) and why. */
export interface FieldError {
  field: string;
  msg: string;
}

/** Why a session ended: the live stream's `session-ended` and the 401 of a call made with it say so. */
export type SessionEndReason = 'signOut' | 'expired' | 'passwordChanged' | 'disabled' | 'forced';

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
  /** On a refusal of the request's fields (schema or rule): which field failed and why; msg names the first. */
  errors?: FieldError[];
  /** On a 401 for a session the server ended: why (msg says it in words). */
  reason?: SessionEndReason;
}

/** The path exempt from the bearer header: sign-in (docs/API.md, calls). */
export const LOGIN_PATH = '/sys/user/verify';
