/**
 * Issue 8, point 10 (passwords): hashes use argon2id at the OWASP parameters (m=19 MiB, t=2, p=1),
 * kept in the hash string, and an older hash (scrypt N=2^14 as first shipped, or argon2id at
 * other parameters) is replaced transparently at the user's next successful sign-in.
 */
import crypto from 'node:crypto';
import { describeOnEachDatabase } from './support/harness';
import { USER_PASSWORD, createUser } from './support/sys-fixtures';
import { loadConfig } from '../../src/server/config';
import { Passwords } from '../../src/server/plugins/app/passwords';
import { assertPasswordPolicy } from '../../src/server/lib/password-policy';

/** A hash as the first release wrote it: scrypt N=2^14, r=8, p=1. */
function legacyScrypt(password: string): string {
  const salt = crypto.randomBytes(16);
  const key = crypto.scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 });
  return ['scrypt', 16384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

describe('password hashing', () => {
  it('uses argon2id with m=19 MiB, t=2, p=1 by default, parameters in the hash', async () => {
    const passwords = new Passwords(loadConfig({}).passwordCost);
    const hash = await passwords.hash('Quiet-Harbour-42');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(await passwords.verify('Quiet-Harbour-42', hash)).toBe(true);
    expect(await passwords.verify('quiet-harbour-42', hash)).toBe(false);
    expect(passwords.needsRehash(hash)).toBe(false);
  });

  it('still verifies the first release’s scrypt hashes, and asks for them to be replaced', async () => {
    const passwords = new Passwords(1024);
    const old = legacyScrypt('Quiet-Harbour-42');
    expect(await passwords.verify('Quiet-Harbour-42', old)).toBe(true);
    expect(await passwords.verify('Quiet-Harbour-43', old)).toBe(false);
    expect(passwords.needsRehash(old)).toBe(true);
    expect(passwords.needsRehash(await new Passwords(2048).hash('x-y-z-1234'))).toBe(true);
    expect(await passwords.verify('anything', 'garbage')).toBe(false);
  });

  it('refuses control characters in a new password', () => {
    expect(() => assertPasswordPolicy('Quiet\u0000Harbour', 'someone')).toThrow('密码不能包含控制字符');
  });
});

describeOnEachDatabase('rehash at sign-in', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });
  const storedHash = async (userName: string) =>
    await ctx().database.db.selectFrom('sysUser').select(['passwordHash', 'version']).where('userName', '=', userName).executeTakeFirstOrThrow();

  it('replaces a scrypt hash with the current argon2id one at the next successful sign-in, keeping the version', async () => {
    await createUser(ctx(), admin, 'legacy1', null);
    await ctx()
      .database.db.updateTable('sysUser')
      .set({ passwordHash: legacyScrypt(USER_PASSWORD) })
      .where('userName', '=', 'legacy1')
      .execute();
    const before = await storedHash('legacy1');
    expect((await ctx().call('/sys/user/verify', { userName: 'legacy1', password: 'Wrong-Password-1' })).code).toBe(400);
    expect((await storedHash('legacy1')).passwordHash).toBe(before.passwordHash);
    // A user with no role is refused after the password check: the hash is upgraded all the same.
    expect((await ctx().call('/sys/user/verify', { userName: 'legacy1', password: USER_PASSWORD })).msg).toBe('用户未绑定角色');
    const after = await storedHash('legacy1');
    expect(after.passwordHash).toMatch(new RegExp(`^\\$argon2id\\$v=19\\$m=${ctx().config.passwordCost},t=2,p=1\\$`));
    expect(after.version).toBe(before.version);
    expect((await ctx().call('/sys/user/verify', { userName: 'legacy1', password: USER_PASSWORD })).msg).toBe('用户未绑定角色');
  });

  it('replaces an argon2id hash made with other parameters', async () => {
    await createUser(ctx(), admin, 'legacy2', null);
    await ctx()
      .database.db.updateTable('sysUser')
      .set({ passwordHash: await new Passwords(512).hash(USER_PASSWORD) })
      .where('userName', '=', 'legacy2')
      .execute();
    await ctx().call('/sys/user/verify', { userName: 'legacy2', password: USER_PASSWORD });
    expect((await storedHash('legacy2')).passwordHash).toMatch(new RegExp(`^\\$argon2id\\$v=19\\$m=${ctx().config.passwordCost},`));
  });
});
