/**
 * Login throttling, kept in the database so every API instance sees the same counts. Failures per
 * account and per address are counted in a window; past a few the answer is slowed, past the limit
 * the key is locked for a while (code 429).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { ServerConfig } from '../../config';
import { tooManyAttempts } from '../../lib/errors';

type Policy = ServerConfig['throttle'];
const SLOWDOWN_AFTER = 2;

export class LoginThrottle {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly policy: Policy,
  ) {}

  static keys(userName: string, ip: string): { user: string; ip: string } {
    return { user: `user:${userName.toLowerCase().slice(0, 100)}`, ip: `ip:${ip.slice(0, 100)}` };
  }

  /** Refuses with 429 while either key is locked. */
  async assertAllowed(keys: { user: string; ip: string }, now = Date.now()): Promise<void> {
    const locked = await this.db
      .selectFrom('sysLoginFailure')
      .select(['lockedUntil'])
      .where('key', 'in', [keys.user, keys.ip])
      .where('lockedUntil', '>', now)
      .orderBy('lockedUntil', 'desc')
      .executeTakeFirst();
    if (locked) {
      const minutes = Math.max(1, Math.ceil((locked.lockedUntil - now) / 60_000));
      throw tooManyAttempts(`登录失败次数过多，请 ${minutes} 分钟后再试`);
    }
  }

  /** Counts a failure for both keys and answers how long to hold the reply back. */
  async recordFailure(keys: { user: string; ip: string }, now = Date.now()): Promise<number> {
    const userFailures = await this.bump(keys.user, this.policy.userMaxFailures, now);
    await this.bump(keys.ip, this.policy.ipMaxFailures, now);
    return Math.max(0, userFailures - SLOWDOWN_AFTER) * this.policy.delayMs;
  }

  async recordSuccess(keys: { user: string; ip: string }): Promise<void> {
    await this.db.deleteFrom('sysLoginFailure').where('key', '=', keys.user).execute();
  }

  private async bump(key: string, limit: number, now: number): Promise<number> {
    const windowStart = now - this.policy.windowMinutes * 60_000;
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('sysLoginFailure').selectAll().where('key', '=', key).executeTakeFirst();
      const failures = row && row.firstAt > windowStart ? row.failures + 1 : 1;
      const firstAt = row && row.firstAt > windowStart ? row.firstAt : now;
      const lockedUntil = failures >= limit ? now + this.policy.lockMinutes * 60_000 : 0;
      await trx
        .insertInto('sysLoginFailure')
        .values({ key, failures, firstAt, lockedUntil })
        .onConflict((oc) => oc.column('key').doUpdateSet({ failures, firstAt, lockedUntil }))
        .execute();
      return failures;
    });
  }
}
