/**
 * Password hashing with argon2id at the OWASP parameters (m=19 MiB, t=2, p=1; memory is the
 * `passwordCost` setting, lowered only in tests), per-user salt and constant-time compare (the
 * policy every new password must meet: lib/password-policy.ts). The hash string carries its
 * parameters (PHC format), so a hash made with other parameters, or with the first release's
 * scrypt (N=2^14), still verifies and is replaced at the user's next successful sign-in.
 *
 * argon2id rather than scrypt at N=2^17: the same strength costs 19 MiB and about 20 ms per hash
 * instead of 128 MiB and about 450 ms, which matters on a small server where every sign-in (and
 * every unknown user name, see `burn`) costs one hash. @node-rs/argon2 ships prebuilt binaries
 * as platform packages of the registry: nothing is compiled or downloaded at install time.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { hash as argon2Hash, verify as argon2Verify, type Algorithm } from '@node-rs/argon2';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;
const ARGON2ID: Algorithm.Argon2id = 2;
const TIME_COST = 2;
const PARALLELISM = 1;
/** The first release's hashes: `scrypt$N$r$p$salt$key`, N at most 2^14. */
const LEGACY_SCRYPT_MAXMEM = 64 * 1024 * 1024;

export class Passwords {
  private readonly options: { algorithm: Algorithm.Argon2id; memoryCost: number; timeCost: number; parallelism: number };
  private readonly current: string;

  /** `memoryKiB`: argon2id memory cost in KiB (19456 = 19 MiB). */
  constructor(memoryKiB: number) {
    this.options = { algorithm: ARGON2ID, memoryCost: memoryKiB, timeCost: TIME_COST, parallelism: PARALLELISM };
    this.current = `$argon2id$v=19$m=${memoryKiB},t=${TIME_COST},p=${PARALLELISM}$`;
  }

  hash(password: string): Promise<string> {
    return argon2Hash(password, this.options);
  }

  async verify(password: string, stored: string): Promise<boolean> {
    if (stored.startsWith('$argon2id$')) return argon2Verify(stored, password).catch(() => false);
    const [scheme, n, r, p, salt, key] = stored.split('$');
    if (scheme !== 'scrypt' || !salt || !key) return false;
    const expected = Buffer.from(key, 'base64url');
    const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: LEGACY_SCRYPT_MAXMEM,
    }).catch(() => null);
    return actual !== null && crypto.timingSafeEqual(actual, expected);
  }

  /** True when a stored hash was made with another scheme or other parameters than today's. */
  needsRehash(stored: string): boolean {
    return !stored.startsWith(this.current);
  }

  /** Spends the same time as a real check, so an unknown user name is not told apart by timing. */
  async burn(password: string): Promise<void> {
    await this.hash(password);
  }
}
