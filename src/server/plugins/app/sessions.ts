/**
 * Opaque bearer tokens: 256 random bits, only their SHA-256 kept in the database, with idle and
 * absolute expiry. Revocation is a row update, so logout is real and works across API instances.
 */
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { SessionUser } from '../../lib/route';

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
/** last_seen_at is refreshed at most this often, so reads do not each cost a write. */
const TOUCH_INTERVAL_MS = 60_000;

export class Sessions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly policy: { idleMinutes: number; maxHours: number },
  ) {}

  async issue(userId: number, ip: string): Promise<string> {
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
      })
      .execute();
    return token;
  }

  /** The signed-in user behind a token, or null when it is unknown, expired, revoked or the user is disabled. */
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
        'r.id as roleId',
        'r.name as roleName',
        'r.builtin',
      ])
      .where('s.tokenHash', '=', hashToken(token))
      .executeTakeFirst();
    const now = Date.now();
    if (!row || row.revokedAt !== null || row.expiresAt <= now) return null;
    if (row.lastSeenAt + this.policy.idleMinutes * 60_000 <= now) return null;
    if (row.userState !== 1 || row.roleId === null) return null;
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
    };
  }

  async revoke(sessionId: number): Promise<void> {
    await this.db.updateTable('sysSession').set({ revokedAt: Date.now() }).where('id', '=', sessionId).where('revokedAt', 'is', null).execute();
  }

  /** Revokes every session of a user, optionally sparing the one making the request. */
  async revokeUser(userId: number, exceptSessionId?: number): Promise<void> {
    let query = this.db.updateTable('sysSession').set({ revokedAt: Date.now() }).where('userId', '=', userId).where('revokedAt', 'is', null);
    if (exceptSessionId !== undefined) query = query.where('id', '<>', exceptSessionId);
    await query.execute();
  }

  /** Deletes sessions that can no longer be used; answers how many. */
  async purgeExpired(now = Date.now()): Promise<number> {
    const idleCutoff = now - this.policy.idleMinutes * 60_000;
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
