/**
 * Login log (monitor/login): every sign-in attempt, sign-out and session end, with the browser and
 * OS read from the user agent. Append-only and hash-chained like the operation log.
 */
import { Type } from '@sinclair/typebox';
import { paged, field, pagedRequest } from '../common';
import { download, post, postEmpty, reads, scoped } from '../endpoint';
import { ChainIntegrity } from './operation';

export const LOGIN_EVENTS = ['signIn', 'signOut', 'sessionEnd'] as const;
export type LoginEvent = (typeof LOGIN_EVENTS)[number];

/**
 * signIn: success, wrongPassword, unknownUser, disabled (user or role), noRole, throttled.
 * signOut: success. sessionEnd: expired, passwordChanged (own change or an administrator's reset),
 * disabled (user or role disabled), forced (force logout).
 */
export const LOGIN_OUTCOMES = ['success', 'wrongPassword', 'unknownUser', 'disabled', 'noRole', 'throttled', 'expired', 'passwordChanged', 'forced'] as const;
export type LoginOutcome = (typeof LOGIN_OUTCOMES)[number];

const Event = Type.Union(
  LOGIN_EVENTS.map((value) => Type.Literal(value)),
  { title: '事件' },
);
const Outcome = Type.Union(
  LOGIN_OUTCOMES.map((value) => Type.Literal(value)),
  { title: '结果' },
);

export const LoginRecord = Type.Object({
  id: Type.Integer(),
  at: Type.Integer(),
  event: Event,
  outcome: Outcome,
  /** null for an unknown user name. */
  userId: field.nullable(Type.Integer()),
  userName: Type.String(),
  ip: Type.String(),
  /** e.g. "Chrome 126.0"; empty when the user agent says nothing. */
  browser: Type.String(),
  /** e.g. "Windows 10". */
  os: Type.String(),
  msg: Type.String(),
  /** The user's unit when the record was written; null for an unknown user name. */
  orgId: field.nullable(Type.Integer()),
});

const loginFilters = {
  startAt: field.instant('开始时间'),
  endAt: field.instant('结束时间'),
  /** Exact user name. */
  userName: field.note('用户名', 64),
  /** Exact address. */
  ip: field.note('IP 地址', 64),
  event: Event,
  outcome: Outcome,
};
/** Newest first (time desc, id desc). */
export const LoginInquire = pagedRequest(loginFilters);
export const LoginExport = Type.Object({ params: Type.Optional(Type.Partial(Type.Object(loginFilters, { additionalProperties: false }))) }, { additionalProperties: false });

export const loginEndpoints = {
  '/monitor/login/inquire': scoped('log', post(LoginInquire, paged(LoginRecord), reads)),
  '/monitor/login/export': scoped('log', download(LoginExport)),
  '/monitor/login/integrity': postEmpty(ChainIntegrity, reads),
};
