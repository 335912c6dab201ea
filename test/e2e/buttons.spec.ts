/**
 * antd's Button removes its loading icon when the icon's leave transition ends. When the loading
 * ends while the icon is still appearing (an answer in a few tens of milliseconds), no transition
 * runs and the invisible icon stays: the button's accessible name stays "loading 登录" until the
 * page is left. global.css gives that leave an end event of its own.
 */
import { buttonName } from './support/list-screen';
import { expect, test } from './support/fixtures';

test('a button whose loading ends at any moment comes back as itself', async ({ page }) => {
  let delayMs = 0;
  // Answers the sign-in at once with a refusal, after a delay that sweeps the icon's appear motion.
  await page.route('**/api/sys/user/verify', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await route.fulfill({ contentType: 'application/json; charset=utf-8', body: JSON.stringify({ code: 400, msg: '用户名或密码错误', data: null }) });
  });
  await page.goto('/sys/verify');
  await page.getByPlaceholder('用户名').fill('someone');
  await page.getByPlaceholder('密码').fill('Not-The-Password-1');
  const signIn = page.getByRole('button', { name: buttonName('登录') });
  for (delayMs = 0; delayMs <= 120; delayMs += 8) {
    await signIn.click();
    await expect(signIn, `after an answer in ${delayMs} ms`).toBeVisible({ timeout: 2_000 });
  }
});
