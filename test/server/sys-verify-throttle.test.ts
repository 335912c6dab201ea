/**
 * Issue 8, points 2, 3 and 9: sign-in throttling that holds under a parallel burst, that an
 * attacker cannot turn against staff, and the same guard on the old password of a password change.
 */
import { describeOnEachDatabase, ADMIN_PASSWORD, type TestApp } from './support/harness';
import { USER_PASSWORD, createUser, expectOk, menuGrants, signedInOperator } from './support/sys-fixtures';
import { DEVICE_COOKIE } from '../../src/server/plugins/app/throttle';

const POLICY = { userMaxFailures: 5, accountMaxFailures: 12, ipMaxFailures: 10, windowMinutes: 15, lockMinutes: 15, delayMs: 0 };

interface SignIn {
  code: number;
  msg: string;
  cookie?: string;
}

/** A sign-in from a given address, optionally from a browser holding a device cookie. */
async function signIn(app: TestApp, userName: string, password: string, address = '127.0.0.1', cookie?: string): Promise<SignIn> {
  const response = await app.app.inject({
    method: 'POST',
    url: '/api/sys/user/verify',
    remoteAddress: address,
    headers: cookie ? { cookie } : {},
    payload: { userName, password },
  });
  const setCookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []).find((line) => line.startsWith(`${DEVICE_COOKIE}=`));
  const { code, msg } = response.json<{ code: number; msg: string }>();
  return { code, msg, ...(setCookie ? { cookie: setCookie.split(';')[0] } : {}) };
}

const tally = (answers: { code: number }[]) => answers.reduce<Record<number, number>>((counts, { code }) => ({ ...counts, [code]: (counts[code] ?? 0) + 1 }), {});

describeOnEachDatabase(
  'sign-in throttling',
  (ctx) => {
    let admin: string;
    beforeAll(async () => {
      admin = await ctx().login();
    });
    beforeEach(async () => {
      await ctx().database.db.deleteFrom('sysLoginFailure').execute();
    });

    it('counts a parallel burst before checking passwords: 40 wrong at once get at most the limit evaluated', async () => {
      await createUser(ctx(), admin, 'burst1', null);
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(ctx(), 'burst1', `wrong-guess-${i}`)));
      expect(tally(answers)).toEqual({ 400: POLICY.userMaxFailures, 429: 40 - POLICY.userMaxFailures });
      expect((await signIn(ctx(), 'burst1', USER_PASSWORD)).code).toBe(429);
    });

    it('a burst spread over many addresses is bounded by the account limit', async () => {
      await createUser(ctx(), admin, 'burst2', null);
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(ctx(), 'burst2', `wrong-guess-${i}`, `10.1.${i}.1`)));
      expect(tally(answers)).toEqual({ 400: POLICY.accountMaxFailures, 429: 40 - POLICY.accountMaxFailures });
    });

    it('a success clears the account: the limit counts from there', async () => {
      for (let i = 0; i < POLICY.userMaxFailures - 1; i++) expect((await signIn(ctx(), 'admin', `wrong-${i}`)).code).toBe(400);
      expect((await signIn(ctx(), 'admin', ADMIN_PASSWORD)).code).toBe(200);
      const answers = await Promise.all(Array.from({ length: POLICY.userMaxFailures }, (_, i) => signIn(ctx(), 'admin', `again-${i}`)));
      expect(tally(answers)).toEqual({ 400: POLICY.userMaxFailures });
      expect((await signIn(ctx(), 'admin', ADMIN_PASSWORD)).code).toBe(429);
    });

    it('failures from one address for any user names do not lock out staff on a device they signed in from', async () => {
      const device = (await signIn(ctx(), 'admin', ADMIN_PASSWORD, '192.0.2.10')).cookie!;
      expect(device).toMatch(new RegExp(`^${DEVICE_COOKIE}=[A-Za-z0-9_-]{43}$`));
      await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(ctx(), `nobody${i}`, 'whatever-123', '192.0.2.10')));
      expect(await signIn(ctx(), 'admin', ADMIN_PASSWORD, '192.0.2.10', device)).toMatchObject({ code: 200 });
      // A browser that never signed in to this account is refused while the address is locked.
      expect(await signIn(ctx(), 'admin', ADMIN_PASSWORD, '192.0.2.10')).toMatchObject({ code: 429, msg: expect.stringMatching(/^登录失败次数过多，请 \d+ 分钟后再试$/) });
      expect((await signIn(ctx(), 'admin', ADMIN_PASSWORD, '192.0.2.11')).code).toBe(200);
    });

    it('an attacker guessing a staff password cannot lock the staff member out of their device', async () => {
      const device = (await signIn(ctx(), 'admin', ADMIN_PASSWORD, '192.0.2.20')).cookie!;
      // Behind a proxy without TRUST_PROXY the attacker even shares the staff member's address.
      const attack = await Promise.all([
        ...Array.from({ length: 20 }, (_, i) => signIn(ctx(), 'admin', `guess-${i}`, '192.0.2.20')),
        ...Array.from({ length: 20 }, (_, i) => signIn(ctx(), 'admin', `guess-${i}`, `198.51.100.${i}`)),
      ]);
      expect(attack.every((answer) => answer.code === 400 || answer.code === 429)).toBe(true);
      expect(await signIn(ctx(), 'admin', ADMIN_PASSWORD, '192.0.2.20', device)).toMatchObject({ code: 200 });
    });

    it('a device cookie of another account, or a made-up one, counts for nothing', async () => {
      await createUser(ctx(), admin, 'cookie1', null);
      const theirs = (await signIn(ctx(), 'admin', ADMIN_PASSWORD, '192.0.2.30')).cookie!;
      await Promise.all(Array.from({ length: POLICY.userMaxFailures }, (_, i) => signIn(ctx(), 'cookie1', `wrong-${i}`, '192.0.2.30')));
      expect((await signIn(ctx(), 'cookie1', USER_PASSWORD, '192.0.2.30', theirs)).code).toBe(429);
      expect((await signIn(ctx(), 'cookie1', USER_PASSWORD, '192.0.2.30', `${DEVICE_COOKIE}=${'A'.repeat(43)}`)).code).toBe(429);
    });

    it('a known device guessing wrong is itself limited', async () => {
      const device = (await signIn(ctx(), 'admin', ADMIN_PASSWORD, '192.0.2.40')).cookie!;
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(ctx(), 'admin', `wrong-${i}`, '192.0.2.40', device)));
      expect(tally(answers)).toEqual({ 400: POLICY.userMaxFailures, 429: 20 - POLICY.userMaxFailures });
    });

    it('sets the device cookie only to the sign-in path, unreadable by scripts', async () => {
      const response = await ctx().app.inject({ method: 'POST', url: '/api/sys/user/verify', payload: { userName: 'admin', password: ADMIN_PASSWORD } });
      const line = ([] as string[]).concat(response.headers['set-cookie'] ?? []).find((l) => l.startsWith(`${DEVICE_COOKIE}=`))!;
      expect(line).toMatch(/; Path=\/api\/sys\/user\/verify/);
      expect(line).toMatch(/; HttpOnly/);
      expect(line).toMatch(/; SameSite=Strict/);
      expect(line).toMatch(/; Max-Age=\d+/);
    });
  },
  { throttle: POLICY },
);

describeOnEachDatabase(
  'old password guesses on a password change',
  (ctx) => {
    it('are counted before the check: a parallel burst gets at most the limit evaluated, then 429 and the session ends', async () => {
      const admin = await ctx().login();
      const { token } = await signedInOperator(ctx(), admin, 'guesser1', await menuGrants(ctx(), '/hotel/device'));
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => ctx().call('/sys/user/password', { oldPassword: `wrong-old-${i}`, newPassword: 'Brand-New-Pass-1' }, token)),
      );
      const counts = tally(answers);
      expect(counts[400]).toBe(POLICY.userMaxFailures - 1);
      // The rest are refused: 429, or 401 for a request that reached the server after its session ended.
      expect(counts[429]).toBeGreaterThanOrEqual(1);
      expect((counts[429] ?? 0) + (counts[401] ?? 0)).toBe(20 - (POLICY.userMaxFailures - 1));
      expect(answers.find((a) => a.code === 429)!.msg).toMatch(/^原密码错误次数过多/);
      expect((await ctx().call('GET /sys/menu/authority', null, token)).code).toBe(401);
      // Signing in again does not reset the count: the right old password waits for the lock too.
      const again = await ctx().login('guesser1', USER_PASSWORD);
      expect((await ctx().call('/sys/user/password', { oldPassword: USER_PASSWORD, newPassword: 'Brand-New-Pass-1' }, again)).code).toBe(429);
    });

    it('a successful change clears the count', async () => {
      const admin = await ctx().login();
      const { token } = await signedInOperator(ctx(), admin, 'guesser2', await menuGrants(ctx(), '/hotel/device'));
      for (let i = 0; i < POLICY.userMaxFailures - 1; i++) {
        expect((await ctx().call('/sys/user/password', { oldPassword: `wrong-${i}`, newPassword: 'Brand-New-Pass-1' }, token)).code).toBe(400);
      }
      expectOk(await ctx().call('/sys/user/password', { oldPassword: USER_PASSWORD, newPassword: 'Brand-New-Pass-1' }, token));
      for (let i = 0; i < POLICY.userMaxFailures - 1; i++) {
        expect((await ctx().call('/sys/user/password', { oldPassword: `wrong-${i}`, newPassword: 'Other-New-Pass-2' }, token)).code).toBe(400);
      }
      expectOk(await ctx().call('/sys/user/password', { oldPassword: 'Brand-New-Pass-1', newPassword: 'Other-New-Pass-2' }, token));
    });
  },
  { throttle: POLICY },
);
