/**
 * Sign-in throttling, kept in the database so every API instance sees the same counts.
 *
 * Every attempt is counted atomically before the password is checked (one INSERT ... ON CONFLICT
 * DO UPDATE ... RETURNING per counter), so a parallel burst cannot slip past the limit: the
 * attempts beyond it are refused without being evaluated. A correct password clears the counts.
 *
 * An attempt comes from an origin: a known device, i.e. a browser holding the device cookie this
 * server set when that account last signed in on it (within KNOWN_DEVICE_DAYS), or else its
 * network address. Counters:
 * - account + origin: past `userMaxFailures` in the window the pair is locked (429). This is the
 *   one limit a known device meets, and only its own wrong guesses reach it.
 * - account, all origins: past `accountMaxFailures` attempts from unknown origins are refused.
 * - address, all accounts: past `ipMaxFailures` attempts from unknown origins are refused.
 * So an attacker, even one behind the same proxy address as the staff, can lock out only origins
 * that are not a known device of the account: staff keep signing in from their usual browsers.
 *
 * The table also holds the known-device marks (`known:` keys, `firstAt` = last success).
 */
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { ServerConfig } from '../../config';
import { tooManyAttempts } from '../../lib/errors';

type Policy = ServerConfig['throttle'];
/** After this many failures of a pair, each further wrong answer is held back a little longer. */
const SLOWDOWN_AFTER = 2;
const KNOWN_DEVICE_DAYS = 30;
const DAY_MS = 86_400_000;

/** The browser's device cookie: sent back only to the sign-in route, never readable by scripts. */
export const DEVICE_COOKIE = 'hotel_device';
const DEVICE_COOKIE_PATH = '/api/sys/user/verify';
const DEVICE_COOKIE_MAX_AGE_S = KNOWN_DEVICE_DAYS * 86_400;
const DEVICE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

export interface Counter {
  /** Attempts within the window, this one included. */
  attempts: number;
  lockedUntil: number;
}

export interface SignInKeys {
  account: string;
  address: string;
  /** The device mark this browser would have for this account (absent without a cookie). */
  device: string | null;
  userName: string;
  ip: string;
}

/** What the sign-in route needs after `begin`: how long to hold back a wrong-password reply. */
export interface SignInAttempt {
  keys: SignInKeys;
  pair: string;
  failureDelayMs: number;
}

const lockedMessage = (lockedUntil: number, now: number, what = '登录失败次数过多') => `${what}，请 ${Math.max(1, Math.ceil((lockedUntil - now) / 60_000))} 分钟后再试`;

export class LoginThrottle {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly policy: Policy,
  ) {}

  /** A fresh device token for a browser that has none (or an unusable one). */
  newDeviceToken(): string {
    return crypto.randomBytes(32).toString('base64url');
  }

  /** The Set-Cookie value that makes this browser a known device: only the sign-in route receives it, scripts never see it. */
  deviceCookie(token: string, secure: boolean): string {
    return [`${DEVICE_COOKIE}=${token}`, `Path=${DEVICE_COOKIE_PATH}`, `Max-Age=${DEVICE_COOKIE_MAX_AGE_S}`, 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])].join(
      '; ',
    );
  }

  /** The device token a browser presented in its Cookie header, or null. */
  deviceTokenIn(cookieHeader: string | undefined): string | null {
    const match = new RegExp(`(?:^|;\\s*)${DEVICE_COOKIE}=([^;]*)`).exec(cookieHeader ?? '');
    return match && DEVICE_TOKEN.test(match[1]) ? match[1] : null;
  }

  keys(userName: string, ip: string, deviceToken: string | null): SignInKeys {
    const name = userName.toLowerCase();
    return {
      account: `user:${sha256(name)}`,
      address: `ip:${ip.slice(0, 100)}`,
      device: deviceToken ? `known:${sha256(`${name}\n${deviceToken}`)}` : null,
      userName: name,
      ip,
    };
  }

  /**
   * Counts one attempt of `key` and answers the count within the window and the lock. A key whose
   * window has passed, or whose lock has been served, starts again at 1; the count reaching
   * `limit` locks the key for `lockMinutes` (later attempts do not extend the lock).
   */
  async count(key: string, limit: number, now = Date.now()): Promise<Counter> {
    const windowStart = now - this.policy.windowMinutes * 60_000;
    const lockUntil = now + this.policy.lockMinutes * 60_000;
    const restart = sql`((sys_login_failure.locked_until > 0 AND sys_login_failure.locked_until <= ${now}) OR (sys_login_failure.locked_until = 0 AND sys_login_failure.first_at <= ${windowStart}))`;
    const { rows } = await sql<{ failures: number | string; lockedUntil: number | string }>`
      INSERT INTO sys_login_failure (key, failures, first_at, locked_until)
      VALUES (${key}, 1, ${now}, ${limit <= 1 ? lockUntil : 0})
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN ${restart} THEN 1 ELSE sys_login_failure.failures + 1 END,
        first_at = CASE WHEN ${restart} THEN ${now} ELSE sys_login_failure.first_at END,
        locked_until = CASE
          WHEN ${restart} THEN ${limit <= 1 ? lockUntil : 0}
          WHEN sys_login_failure.locked_until > 0 THEN sys_login_failure.locked_until
          WHEN sys_login_failure.failures + 1 >= ${limit} THEN ${lockUntil}
          ELSE 0
        END
      RETURNING failures, locked_until`.execute(this.db);
    const row = rows[0];
    return { attempts: Number(row.failures), lockedUntil: Number(row.lockedUntil) };
  }

  async reset(...keys: string[]): Promise<void> {
    await this.db.deleteFrom('sysLoginFailure').where('key', 'in', keys).execute();
  }

  /** Throws 429 when `counter` is past `limit`. */
  assertWithin(counter: Counter, limit: number, now = Date.now(), what?: string): void {
    if (counter.attempts > limit) throw tooManyAttempts(lockedMessage(Math.max(counter.lockedUntil, now + 60_000), now, what));
  }

  private async isKnownDevice(key: string | null, now: number): Promise<boolean> {
    if (!key) return false;
    const mark = await this.db.selectFrom('sysLoginFailure').select('firstAt').where('key', '=', key).executeTakeFirst();
    return mark !== undefined && mark.firstAt > now - KNOWN_DEVICE_DAYS * DAY_MS;
  }

  /**
   * Counts a sign-in attempt before its password is checked; throws 429 when it must not be
   * evaluated. The address is counted first, so attempts it refuses leave no other rows behind.
   */
  async begin(keys: SignInKeys, now = Date.now()): Promise<SignInAttempt> {
    const { userMaxFailures, accountMaxFailures, ipMaxFailures, delayMs } = this.policy;
    const known = await this.isKnownDevice(keys.device, now);
    const address = await this.count(keys.address, ipMaxFailures, now);
    if (!known) this.assertWithin(address, ipMaxFailures, now);
    const pair = known ? `pair:${keys.device!.slice('known:'.length)}` : `pair:${sha256(`${keys.userName}\n${keys.ip}`)}`;
    const pairCount = await this.count(pair, userMaxFailures, now);
    this.assertWithin(pairCount, userMaxFailures, now);
    const account = await this.count(keys.account, accountMaxFailures, now);
    if (!known) this.assertWithin(account, accountMaxFailures, now);
    return { keys, pair, failureDelayMs: Math.max(0, pairCount.attempts - SLOWDOWN_AFTER) * delayMs };
  }

  /**
   * The password was right: the account and pair start again, the address gets this attempt
   * back (it was not a failure), and the browser becomes a known device of the account.
   */
  async succeeded(attempt: SignInAttempt, deviceToken: string, now = Date.now()): Promise<void> {
    const { keys } = attempt;
    await this.reset(keys.account, attempt.pair);
    await this.db
      .updateTable('sysLoginFailure')
      .set((eb) => ({ failures: eb('failures', '-', 1) }))
      .where('key', '=', keys.address)
      .where('failures', '>', 0)
      .execute();
    const mark = this.keys(keys.userName, keys.ip, deviceToken).device!;
    await this.db
      .insertInto('sysLoginFailure')
      .values({ key: mark, failures: 0, firstAt: now, lockedUntil: 0 })
      .onConflict((oc) => oc.column('key').doUpdateSet({ firstAt: now }))
      .execute();
  }
}
