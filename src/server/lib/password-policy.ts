/**
 * The password policy, checked on the server for every new password (creation, reset, own change,
 * the administrator's ADMIN_PASSWORD), and the generator of passwords that meet it (imports, the
 * first start). Hashing is the passwords plugin's (plugins/app/passwords.ts).
 */
import crypto from 'node:crypto';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../contract/constants';
import { invalid } from './errors';
import { textRuleViolation } from './validators';

/** Frequently leaked passwords that pass the length rule; refused outright. */
const COMMON_PASSWORDS = new Set([
  '12345678',
  '123456789',
  '1234567890',
  '87654321',
  '11111111',
  '88888888',
  '00000000',
  '66666666',
  'password',
  'password1',
  'password123',
  'passw0rd',
  'qwertyui',
  'qwerty123',
  'qwertyuiop',
  'asdfghjkl',
  '1qaz2wsx',
  'zaq12wsx',
  'abc12345',
  'abcd1234',
  'a1234567',
  'aa123456',
  'admin123',
  'admin888',
  'administrator',
  'iloveyou',
  'welcome1',
  'sunshine',
  'princess',
  'football',
  'baseball',
  '1q2w3e4r',
  'woaini1314',
  '5201314520',
  'letmein1',
  'changeme',
  'hotel123',
  'root1234',
  'test1234',
  'p@ssw0rd',
]);

/** Throws a 400 naming the broken rule. */
export function assertPasswordPolicy(password: string, userName: string): void {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw invalid(`密码长度应为 ${PASSWORD_MIN}-${PASSWORD_MAX} 个字符`);
  }
  if (textRuleViolation('line', password)) throw invalid('密码不能包含控制字符');
  const lowered = password.toLowerCase();
  if (lowered.includes(userName.toLowerCase())) throw invalid('密码不能包含用户名');
  if (COMMON_PASSWORDS.has(lowered)) throw invalid('密码过于常见，请换一个更难猜的密码');
  if (/^(.)\1+$/.test(password)) throw invalid('密码不能由同一个字符重复组成');
}

export function generatePassword(): string {
  return crypto.randomBytes(12).toString('base64url');
}
