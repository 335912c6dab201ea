/**
 * Password hashing with scrypt (memory-hard, per-user salt, constant-time compare) and the password
 * policy checked on the server for every new password.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../contract/constants';
import { invalid } from '../../lib/errors';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;
const KEY_LENGTH = 32;

/** Frequently leaked passwords that pass the length rule; refused outright. */
const COMMON_PASSWORDS = new Set([
  '12345678', '123456789', '1234567890', '87654321', '11111111', '88888888', '00000000', '66666666',
  'password', 'password1', 'password123', 'passw0rd', 'qwertyui', 'qwerty123', 'qwertyuiop', 'asdfghjkl',
  '1qaz2wsx', 'zaq12wsx', 'abc12345', 'abcd1234', 'a1234567', 'aa123456', 'admin123', 'admin888',
  'administrator', 'iloveyou', 'welcome1', 'sunshine', 'princess', 'football', 'baseball', '1q2w3e4r',
  'woaini1314', '5201314520', 'letmein1', 'changeme', 'hotel123', 'root1234', 'test1234', 'p@ssw0rd',
]);

export class Passwords {
  private readonly options: crypto.ScryptOptions;

  constructor(cost: number) {
    this.options = { N: cost, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
  }

  async hash(password: string): Promise<string> {
    const salt = crypto.randomBytes(16);
    const key = await scrypt(password, salt, KEY_LENGTH, this.options);
    return ['scrypt', this.options.N, this.options.r, this.options.p, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const [scheme, n, r, p, salt, key] = stored.split('$');
    if (scheme !== 'scrypt' || !salt || !key) return false;
    const expected = Buffer.from(key, 'base64url');
    const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: 64 * 1024 * 1024,
    });
    return crypto.timingSafeEqual(actual, expected);
  }

  /** Spends the same time as a real check, so an unknown user name is not told apart by timing. */
  async burn(password: string): Promise<void> {
    await scrypt(password, crypto.randomBytes(16), KEY_LENGTH, this.options);
  }
}

/** Throws a 400 naming the broken rule. */
export function assertPasswordPolicy(password: string, userName: string): void {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw invalid(`密码长度应为 ${PASSWORD_MIN}-${PASSWORD_MAX} 个字符`);
  }
  const lowered = password.toLowerCase();
  if (lowered.includes(userName.toLowerCase())) throw invalid('密码不能包含用户名');
  if (COMMON_PASSWORDS.has(lowered)) throw invalid('密码过于常见，请换一个更难猜的密码');
  if (/^(.)\1+$/.test(password)) throw invalid('密码不能由同一个字符重复组成');
}

export function generatePassword(): string {
  return crypto.randomBytes(12).toString('base64url');
}
