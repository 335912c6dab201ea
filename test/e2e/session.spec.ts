/** Session rules (docs/client.md, Session and HTTP) as a person in a browser meets them. */
import { Api, uniq } from './support/api';
import { buttonName, callDuring, expectToast } from './support/list-screen';
import { ADMIN_PASSWORD, ADMIN_USER, ANSWER_TIMEOUT_MS, baseUrl } from './support/env';
import { expect, test } from './support/fixtures';
import { openMenu, sidebar } from './support/shell';
import { apiPath, isLiveStream, recordApiRequests, settle, storedSession } from './support/session';

test('a deep path without a token lands on the login, and signing in returns there', async ({ page, shot }) => {
  await page.goto('/hotel/device');
  await expect(page).toHaveURL(/\/sys\/verify$/);
  expect((await storedSession(page)).token).toBeNull();
  await shot(page, 'login');

  // Signing in from here (not through signIn, which starts at the login afresh) follows the
  // path the guard carried.
  await page.getByPlaceholder('用户名').fill(ADMIN_USER);
  await page.getByPlaceholder('密码').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page).toHaveURL(/\/hotel\/device$/);
});

test('login refusals show the server message as the one toast and stay on the login', async ({ page, adminApi }) => {
  const userName = uniq('norole_');
  const password = 'No-Role-Pass-2024';
  await adminApi.ok('/sys/user/creation', { userName, nickName: '无角色', password, state: 1, roleId: null });
  await page.goto('/sys/verify');

  const tryLogin = async (name: string, secret: string) => {
    await page.getByPlaceholder('用户名').fill(name);
    await page.getByPlaceholder('密码').fill(secret);
    return callDuring(page, '/sys/user/verify', () => page.getByRole('button', { name: buttonName('登录') }).click());
  };
  const wrong = await tryLogin(userName, 'Not-The-Password-1');
  expect(wrong.envelope.code).toBe(400);
  await expectToast(page, (await adminApi.call('/sys/user/verify', { userName: uniq('nobody_'), password: 'x' })).msg);

  // docs/api/session.md: a user with no bound role is refused with exactly this message.
  await tryLogin(userName, password);
  await expectToast(page, '用户未绑定角色');
  await expect(page).toHaveURL(/\/sys\/verify$/);
  expect((await storedSession(page)).token).toBeNull();
});

test('login stores token, userName and nickName and replaces the login in history', async ({ page, signIn }) => {
  await page.goto('/sys/verify');
  const entriesBefore = await page.evaluate(() => history.length);
  const requests = recordApiRequests(page);

  await signIn(page);
  await expect(page).toHaveURL(/\/$/);
  const session = await storedSession(page);
  expect(session.token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  expect(session.userName).toBe(ADMIN_USER);
  expect(session.nickName).toBeTruthy();
  await expect(page.getByText(session.nickName!).first()).toBeVisible();

  // Replaced, not pushed: the history did not grow and going back does not reach the login
  // (it leaves the app for the blank page the browser started on).
  expect(await page.evaluate(() => history.length)).toBe(entriesBefore);
  await page.goBack().catch(() => null);
  await expect(page).not.toHaveURL(/\/sys\/verify/);

  // Every call but the login carries the stored token as a bearer token, also after a fresh load;
  // the live stream carries its single-use ticket instead, never the token.
  await page.goto('/');
  await expect(sidebar(page)).toBeVisible();
  const verify = requests.filter((r) => apiPath(r) === '/sys/user/verify');
  const streams = requests.filter(isLiveStream);
  expect(streams.length).toBeGreaterThan(0);
  for (const stream of streams) {
    expect(stream.headers().authorization).toBeUndefined();
    expect(stream.url()).not.toContain(session.token!);
  }
  const others = requests.filter((r) => apiPath(r) !== '/sys/user/verify' && !isLiveStream(r));
  expect(verify).toHaveLength(1);
  expect(verify[0].headers().authorization).toBeUndefined();
  expect(others.map(apiPath)).toContain('/sys/menu/authority');
  for (const request of others) {
    expect(request.headers().authorization, `bearer on ${apiPath(request)}`).toBe(`Bearer ${session.token}`);
  }
});

test('a session revoked elsewhere sends the page to the login at once, saying so, with storage cleared', async ({ page, signIn, playwright }) => {
  await signIn(page);
  await openMenu(page, '酒店管理', '设备管理');
  await expect(page.getByRole('main').getByRole('table')).toBeVisible();
  await settle(page);
  await expect(page.getByRole('button', { name: '实时更新：实时' })).toBeVisible({ timeout: ANSWER_TIMEOUT_MS });
  const { token } = await storedSession(page);

  // A second, independent client signs the same token out.
  const elsewhere = await playwright.request.newContext({ baseURL: baseUrl() });
  const logout = await new Api(elsewhere, token!).call('/sys/user/logout');
  expect(logout.code).toBe(200);
  await elsewhere.dispose();

  // The live stream announces the end: no click needed.
  await expect(page).toHaveURL(/\/sys\/verify/, { timeout: ANSWER_TIMEOUT_MS });
  await expect(page.locator('.verify-notice')).toHaveText('已退出登录，请重新登录');
  expect(await storedSession(page)).toEqual({ token: null, userName: null, nickName: null });

  // A call still made with the token answers 401 with the reason.
  const replay = await new Api(page.request, token!).call('GET /sys/menu/authority');
  expect(replay).toMatchObject({ code: 401, reason: 'signOut' });
});

test('logout revokes the token on the server', async ({ page, signIn, request }) => {
  await signIn(page);
  const { token, nickName } = await storedSession(page);

  await page.getByText(nickName!).first().click();
  const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/sys/user/logout'), { timeout: ANSWER_TIMEOUT_MS });
  await page.getByText('退出登录').click();
  expect((await (await loggedOut).json()).code).toBe(200);
  await expect(page).toHaveURL(/\/sys\/verify/);
  expect((await storedSession(page)).token).toBeNull();

  // Replaying the old token is refused: the server forgot it, not just the browser.
  const replay = await new Api(request, token!).call('GET /sys/menu/authority');
  expect(replay.code).toBe(401);
});
