/**
 * Opaque bearer tokens: 256 random bits, only their SHA-256 kept in the database, with idle and
 * absolute expiry. Revocation is a row update, so logout is real and works across API instances.
 * Every way a session ends (sign-out, expiry, password change, disabling, force logout) goes
 * through here and is reported once to the login log (`SessionEvents`).
 */
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { SessionUser } from '../../lib/route';
import { yieldToEventLoop } from '../../lib/event-loop';
import type { SessionEndReason } from '../../../contract/constants';

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
/** last_seen_at is refreshed at most this often, so reads do not each cost a write. */
const TOUCH_INTERVAL_MS = 60_000;
/** Expired sessions reported to the login log per purge batch. */
const PURGE_BATCH = 500;

/** A session's end is recorded in the login log within this long of its revocation. */
const END_RECORD_WINDOW_MS = 60_000;

export type { SessionEndReason };

const END_TEXTS: Record<SessionEndReason, string> = {
  signOut: '退出登录',
  expired: '会话已过期',
  passwordChanged: '密码已修改，会话失效',
  disabled: '账号或角色已停用，会话失效',
  forced: '被强制下线',
};

/** How a session's end reads in the login log: what the caller said (e.g. 被 admin 强制下线), else the reason's words. */
export const endText = (reason: SessionEndReason, msg?: string): string => msg ?? END_TEXTS[reason];

/** What the signed-out person is told (the 401 of their next call, the live stream's session-ended). */
export const sessionEndNotice = (reason: SessionEndReason, text: string): string => `${reason === 'signOut' ? '已退出登录' : text}，请重新登录`;

/** Why a session ended, for the person whose session it was. */
export interface SessionEnd {
  reason: SessionEndReason;
  msg: string;
}

export interface EndedSession {
  id: number;
  userId: number;
  userName: string;
  ip: string;
  userAgent: string;
}

/** Told once per session that ends, by whichever instance ended it. */
export interface SessionEvents {
  sessionsEnded(sessions: EndedSession[], reason: SessionEndReason, msg?: string): Promise<void>;
}

export class Sessions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly policy: { idleMinutes: number; maxHours: number },
    private readonly events: SessionEvents,
  ) {}

  async issue(userId: number, ip: string, userAgent = ''): Promise<string> {
    const token = crypto.randomBytes(32).toString('base64url');
    const now = Date.now();
    await this.db
      .insertInto('sysSession')
      .values({
        tokenHash: hashToken(token),
        userId,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: now + this.policy.maxHours * 3_600_000,
        revokedAt: null,
        ip: ip.slice(0, 64),
        userAgent: userAgent.slice(0, 255),
      })
      .execute();
    return token;
  }

  /**
   * The signed-in user behind a token, or null when it is unknown, expired, revoked, or its user
   * or their role is disabled (disabling revokes too; this also covers a change made elsewhere).
   */
  async resolve(token: string): Promise<SessionUser | null> {
    const row = await this.db
      .selectFrom('sysSession as s')
      .innerJoin('sysUser as u', 'u.id', 's.userId')
      .leftJoin('sysRole as r', 'r.id', 'u.roleId')
      .select([
        's.id as sessionId',
        's.lastSeenAt',
        's.expiresAt',
        's.revokedAt',
        'u.id as userId',
        'u.userName',
        'u.nickName',
        'u.state as userState',
        'u.orgId',
        'r.id as roleId',
        'r.name as roleName',
        'r.builtin',
        'r.state as roleState',
        'r.dataScope',
      ])
      .where('s.tokenHash', '=', hashToken(token))
      .executeTakeFirst();
    const now = Date.now();
    if (!row || row.revokedAt !== null) return null;
    // The first use of a session past its time ends it (and reports it); the purge task ends the rest.
    if (row.expiresAt <= now || row.lastSeenAt + this.policy.idleMinutes * 60_000 <= now) {
      await this.end([row.sessionId], 'expired');
      return null;
    }
    if (row.userState !== 1 || row.roleId === null || row.roleState !== 1) {
      await this.end([row.sessionId], 'disabled');
      return null;
    }
    if (now - row.lastSeenAt > TOUCH_INTERVAL_MS) {
      await this.db.updateTable('sysSession').set({ lastSeenAt: now }).where('id', '=', row.sessionId).execute();
    }
    return {
      sessionId: row.sessionId,
      userId: row.userId,
      userName: row.userName,
      nickName: row.nickName,
      roleId: row.roleId,
      roleName: row.roleName ?? '',
      builtin: row.builtin === 1,
      orgId: row.orgId,
      dataScope: row.dataScope ?? 'all',
    };
  }

  /**
   * Why the session behind a token ended, read back from its login-log record (same user, address
   * and browser, written as it ended); null for a token unknown (or purged) or still live, or when
   * no record is found.
   */
  async endOf(token: string): Promise<SessionEnd | null> {
    const session = await this.db
      .selectFrom('sysSession as s')
      .innerJoin('sysUser as u', 'u.id', 's.userId')
      .select(['s.revokedAt', 's.ip', 's.userAgent', 'u.userName'])
      .where('s.tokenHash', '=', hashToken(token))
      .executeTakeFirst();
    if (!session || session.revokedAt === null) return null;
    const record = await this.db
      .selectFrom('sysLoginLog')
      .select(['event', 'outcome', 'msg'])
      .where('userName', '=', session.userName)
      .where('at', '>=', session.revokedAt)
      .where('at', '<=', session.revokedAt + END_RECORD_WINDOW_MS)
      .where('event', 'in', ['signOut', 'sessionEnd'])
      .where('ip', '=', session.ip)
      .where('userAgent', '=', session.userAgent)
      .orderBy('at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!record) return null;
    const reason = record.event === 'signOut' ? 'signOut' : record.outcome;
    if (!Object.hasOwn(END_TEXTS, reason)) return null;
    return { reason: reason as SessionEndReason, msg: sessionEndNotice(reason as SessionEndReason, record.msg) };
  }

  /** Ends one session; answers whether it was still live. */
  async revoke(sessionId: number, reason: 'signOut' | 'forced', msg?: string): Promise<boolean> {
    return (await this.end([sessionId], reason, msg)) === 1;
  }

  /** Ends every live session of a user, optionally sparing the one making the request; answers how many. */
  async revokeUser(userId: number, reason: SessionEndReason, options: { except?: number; msg?: string } = {}): Promise<number> {
    let query = this.db.selectFrom('sysSession').select('id').where('userId', '=', userId).where('revokedAt', 'is', null);
    if (options.except !== undefined) query = query.where('id', '<>', options.except);
    const ids = (await query.execute()).map((row) => row.id);
    return this.end(ids, reason, options.msg);
  }

  /** Ends every live session of every user in a role (the role was disabled); answers how many. */
  async revokeRole(roleId: number, msg?: string): Promise<number> {
    const rows = await this.db
      .selectFrom('sysSession as s')
      .innerJoin('sysUser as u', 'u.id', 's.userId')
      .select('s.id')
      .where('s.revokedAt', 'is', null)
      .where('u.roleId', '=', roleId)
      .execute();
    return this.end(
      rows.map((row) => row.id),
      'disabled',
      msg,
    );
  }

  /**
   * Marks live sessions ended and reports the ones this call ended (another instance may have
   * ended some a moment earlier: the conditional update decides who reports).
   */
  private async end(ids: number[], reason: SessionEndReason, msg?: string): Promise<number> {
    if (ids.length === 0) return 0;
    const ended = await this.db.updateTable('sysSession').set({ revokedAt: Date.now() }).where('id', 'in', ids).where('revokedAt', 'is', null).returning(['id']).execute();
    if (ended.length === 0) return 0;
    const sessions = await this.db
      .selectFrom('sysSession as s')
      .innerJoin('sysUser as u', 'u.id', 's.userId')
      .select(['s.id', 's.userId', 'u.userName', 's.ip', 's.userAgent'])
      .where(
        's.id',
        'in',
        ended.map((row) => row.id),
      )
      .orderBy('s.id')
      .execute();
    await this.events.sessionsEnded(sessions, reason, msg);
    return ended.length;
  }

  /** Ends (and reports) sessions past their time, then deletes every ended session; answers how many were deleted. */
  async purgeExpired(now = Date.now()): Promise<number> {
    const idleCutoff = now - this.policy.idleMinutes * 60_000;
    for (;;) {
      const expired = await this.db
        .selectFrom('sysSession')
        .select('id')
        .where('revokedAt', 'is', null)
        .where((eb) => eb.or([eb('expiresAt', '<=', now), eb('lastSeenAt', '<=', idleCutoff)]))
        .limit(PURGE_BATCH)
        .execute();
      if (expired.length === 0) break;
      await this.end(
        expired.map((row) => row.id),
        'expired',
      );
      await yieldToEventLoop();
    }
    const result = await this.db
      .deleteFrom('sysSession')
      .where((eb) => eb.or([eb('expiresAt', '<=', now), eb('revokedAt', 'is not', null), eb('lastSeenAt', '<=', idleCutoff)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async countActive(now = Date.now()): Promise<number> {
    const row = await this.db
      .selectFrom('sysSession')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('revokedAt', 'is', null)
      .where('expiresAt', '>', now)
      .where('lastSeenAt', '>', now - this.policy.idleMinutes * 60_000)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
