/**
 * Online users (monitor/online): the live sessions, and force logout of one session or of all a
 * user's sessions. Refused for the operator's own current session and for users the operator may
 * not manage (the escalation rule of the user screen). The forced user's next call answers 401 on
 * every API instance.
 */
import { Type } from '@sinclair/typebox';
import { field, pagedRequest, paged } from '../common';
import { acts, post, reads, scoped } from '../endpoint';

export const OnlineRecord = Type.Object({
  sessionId: Type.Integer(),
  userId: Type.Integer(),
  userName: Type.String(),
  nickName: Type.String(),
  roleName: Type.String(),
  ip: Type.String(),
  browser: Type.String(),
  os: Type.String(),
  signedInAt: Type.Integer(),
  /** Refreshed at most once a minute. */
  lastSeenAt: Type.Integer(),
  /** When the session ends unless used again: the earlier of its idle and absolute expiry. */
  expiresAt: Type.Integer(),
  /** 1 for the session making this request. */
  current: Type.Integer(),
});

/** Most recently active first. */
export const OnlineInquire = pagedRequest({
  userName: field.note('用户名', 32),
  ip: field.note('IP 地址', 64),
});

export const OnlineRevoke = Type.Object({ sessionId: field.id('会话') }, { additionalProperties: false });
/** All of a user's sessions; for the operator's own user, all but the current one. */
export const OnlineRevokeUser = Type.Object({ userId: field.id('用户') }, { additionalProperties: false });
/** How many sessions were ended. */
export const RevokeResult = Type.Object({ count: Type.Integer() });

export const onlineEndpoints = {
  '/monitor/online/inquire': scoped('user', post(OnlineInquire, paged(OnlineRecord), reads)),
  '/monitor/online/revoke': scoped('user', post(OnlineRevoke, RevokeResult, acts('session', 'body.sessionId'))),
  '/monitor/online/revoke/user': scoped('user', post(OnlineRevokeUser, RevokeResult, acts('user', 'body.userId'))),
};
