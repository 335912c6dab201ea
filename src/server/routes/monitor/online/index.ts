/**
 * Online users (monitor/online): the live sessions and force logout. A forced session is revoked
 * in the database, so its next call answers 401 on every API instance. The operator's own current
 * session is refused (that is what 退出登录 is for), and so are users the operator may not manage
 * (the user screen's escalation rule). Only the sessions of users in the caller's data scope are
 * listed or ended.
 */
import type { FastifyInstance } from 'fastify';
import { currentScope, currentUser, defineRoute, ok } from '../../../lib/route';
import { invalid, notFound } from '../../../lib/errors';
import { inScope, type DataScope } from '../../../lib/data-scope';
import { contains, fetchPage, given } from '../../../lib/list-query';
import { describeUserAgent } from '../../../lib/user-agent';
import { assertMayManageUser } from '../../../services/grants';
import { findUser } from '../../../services/users';
import { sessionAuditTarget } from './audit-target';

export function onlineRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.audit.targets.register('session', sessionAuditTarget);
  const idleMs = app.config.session.idleMinutes * 60_000;

  /** Sessions neither revoked nor past their absolute or idle expiry, of the users in the caller's scope. */
  const liveSessions = (scope: DataScope, now: number) =>
    app.db
      .selectFrom('sysSession as s')
      .innerJoin('sysUser as u', 'u.id', 's.userId')
      .$call(inScope(scope, { org: 'u.orgId', self: 'u.id' }))
      .leftJoin('sysRole as r', 'r.id', 'u.roleId')
      .where('s.revokedAt', 'is', null)
      .where('s.expiresAt', '>', now)
      .where('s.lastSeenAt', '>', now - idleMs);

  defineRoute(app, '/monitor/online/inquire', 'resource', async (request) => {
    const me = currentUser(request);
    const { size, current, params = {} } = request.body;
    let query = liveSessions(currentScope(request), Date.now());
    if (given(params.userName)) query = query.where((eb) => contains(eb.ref('u.userName'), params.userName!));
    if (given(params.ip)) query = query.where((eb) => contains(eb.ref('s.ip'), params.ip!));
    const page = await fetchPage(
      { size, current },
      () => query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      (limit, offset) =>
        query
          .select(['s.id', 's.userId', 'u.userName', 'u.nickName', 'r.name as roleName', 's.ip', 's.userAgent', 's.createdAt', 's.lastSeenAt', 's.expiresAt'])
          .orderBy('s.lastSeenAt', 'desc')
          .orderBy('s.id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute(),
    );
    return ok({
      ...page,
      records: page.records.map((row) => ({
        sessionId: row.id,
        userId: row.userId,
        userName: row.userName,
        nickName: row.nickName,
        roleName: row.roleName ?? '',
        ip: row.ip,
        ...describeUserAgent(row.userAgent),
        signedInAt: row.createdAt,
        lastSeenAt: row.lastSeenAt,
        expiresAt: Math.min(row.expiresAt, row.lastSeenAt + idleMs),
        current: row.id === me.sessionId ? 1 : 0,
      })),
    });
  });

  defineRoute(app, '/monitor/online/revoke', 'resource', async (request) => {
    const me = currentUser(request);
    const { sessionId } = request.body;
    const session = await liveSessions(currentScope(request), Date.now()).select(['s.id', 's.userId', 'u.roleId']).where('s.id', '=', sessionId).executeTakeFirst();
    if (!session) throw notFound('在线会话');
    if (session.id === me.sessionId) throw invalid('不能强制下线自己当前的会话，请使用退出登录');
    const owner = { id: session.userId, roleId: session.roleId };
    await assertMayManageUser(app.db, me, owner);
    const ended = await app.sessions.revoke(session.id, 'forced', `被 ${me.userName} 强制下线`);
    return ok({ count: ended ? 1 : 0 }, '已强制下线该会话');
  });

  defineRoute(app, '/monitor/online/revoke/user', 'resource', async (request) => {
    const me = currentUser(request);
    const user = await findUser(app.db, currentScope(request), request.body.userId);
    await assertMayManageUser(app.db, me, user);
    // For oneself: every other session, never the one asking.
    const count = await app.sessions.revokeUser(user.id, 'forced', {
      ...(user.id === me.userId ? { except: me.sessionId } : {}),
      msg: `被 ${me.userName} 强制下线`,
    });
    return ok({ count }, count > 0 ? `已强制下线 ${user.userName} 的 ${count} 个会话` : user.id === me.userId ? '没有其他在线会话' : `${user.userName} 没有在线会话`);
  });
  done();
}
