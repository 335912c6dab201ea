/** The shell (docs/client.md, Shell and Routes and views): sidebar from the authorised menu, menu keys, unknown screen, lazy views. */
import { uniq } from './support/api';
import { expect, test } from './support/fixtures';
import { expectMenuKeys, menuItem, openMenu, sidebar, unknownScreen } from './support/shell';

test('the sidebar shows exactly the authorised menu with the panel selected', async ({ page, signIn, adminApi, shot }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('在线设备 / 设备总数')).toBeVisible();
  await expectMenuKeys(page, { selected: ['控制台'], open: ['系统管理'] });
  // The panel's figures are the server's, not placeholders.
  const figures = await adminApi.ok('/sys/panel/inquire');
  const figure = (title: string) => page.getByRole('main').locator('.ant-card').filter({ hasText: title });
  await expect(figure('角色')).toContainText(String(figures.roles));
  await expect(figure('启用用户 / 用户总数')).toContainText(new RegExp(`${figures.usersEnabled}\\s*/\\s*${figures.users}`));
  await shot(page, 'panel');

  const authority = await adminApi.ok('GET /sys/menu/authority');
  const parents = authority.filter((m) => m.pid === null);
  // Folded submenus do not render their children: open every parent before reading labels.
  for (const parent of parents) {
    const title = menuItem(page, parent.name);
    if ((await title.getAttribute('aria-expanded')) !== 'true') await title.click();
  }
  const shown = await sidebar(page).locator('.ant-menu-title-content').allInnerTexts();
  expect(shown.map((t) => t.trim()).sort()).toEqual(authority.map((m) => m.name).sort());

  // The shell fills the window exactly: no white frame from the browser's default body margin,
  // no page scrollbar on a screen this short (seen on every screenshot before).
  const fit = await page.evaluate(() => ({ margin: getComputedStyle(document.body).margin, height: document.documentElement.scrollHeight, window: innerHeight }));
  expect.soft(fit.margin, 'body margin').toBe('0px');
  expect.soft(fit.height, 'page height vs window height').toBeLessThanOrEqual(fit.window);
});

test('back and forward recompute the selected item and open its parent', async ({ page, signIn }) => {
  await signIn(page);
  const hotel = menuItem(page, '酒店管理');
  const sys = menuItem(page, '系统管理');
  const screenShown = () => expect(page.getByRole('main').getByRole('table').first()).toBeVisible();

  await openMenu(page, '酒店管理', '设备管理');
  await expect(page).toHaveURL(/\/hotel\/device$/);
  await screenShown();
  await expectMenuKeys(page, { selected: ['设备管理'] });
  await expect(hotel).toHaveAttribute('aria-expanded', 'true');

  // Fold the hotel area by hand, then leave: coming back must recompute the keys from the path
  // (docs/client.md, Shell: a child item opens its parent), not replay the hand-made state.
  await hotel.click();
  await expect(hotel).toHaveAttribute('aria-expanded', 'false');
  await openMenu(page, '系统管理', '用户管理');
  await expect(page).toHaveURL(/\/sys\/user$/);
  await screenShown();
  await expectMenuKeys(page, { selected: ['用户管理'] });

  await page.goBack();
  await expect(page).toHaveURL(/\/hotel\/device$/);
  await screenShown();
  await expect(hotel, 'Back to /hotel/device opens 酒店管理 again').toHaveAttribute('aria-expanded', 'true');
  await expectMenuKeys(page, { selected: ['设备管理'] });

  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expectMenuKeys(page, { selected: ['控制台'] });
  await expect(sys).toHaveAttribute('aria-expanded', 'true');

  await page.goForward();
  await page.goForward();
  await expect(page).toHaveURL(/\/sys\/user$/);
  await expectMenuKeys(page, { selected: ['用户管理'] });
  await expect(sys).toHaveAttribute('aria-expanded', 'true');
});

test('a menu naming no view and an unmatched path show the unknown screen in the shell', async ({ page, signIn, adminApi, shot }) => {
  const hotel = (await adminApi.ok('GET /sys/menu/authority')).find((m) => m.pid === null && m.path === '/hotel');
  const name = uniq('无视图');
  const path = `/hotel/${uniq('nothing')}`;
  // isAuth 1: only roles granted it (the administrator holds everything) see it, so the
  // restricted users of other tests are unaffected.
  await adminApi.ok('/sys/menu/creation', { pid: hotel!.id, name, path, element: 'x/nothing', icon: '', sort: 99, state: 1, isAuth: 1 });

  await signIn(page);
  await openMenu(page, '酒店管理', name);
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(unknownScreen(page)).toBeVisible();
  await expect(sidebar(page)).toBeVisible();
  await expectMenuKeys(page, { selected: [name] });
  await shot(page, 'unknown');

  await page.goto('/no/such/screen');
  await expect(unknownScreen(page)).toBeVisible();
  await expect(sidebar(page)).toBeVisible();
  await page.getByRole('button', { name: /返回首页/ }).click();
  await expect(page.getByText('在线设备 / 设备总数')).toBeVisible();
});

test('a spinner shows while a lazily loaded screen arrives', async ({ page, signIn }) => {
  await signIn(page);
  // Hold a screen's chunk until the spinner has been seen, then let it through.
  const holdChunk = async (view: string) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let markRequested!: () => void;
    const requested = new Promise<void>((resolve) => (markRequested = resolve));
    // Installed before the caller navigates, so the chunk's request cannot slip past.
    await page.route(new RegExp(`/assets/view-${view}\\.[^/]*\\.js$`), async (route) => {
      markRequested();
      await held;
      await route.continue();
    });
    return { requested, release };
  };
  const spinner = page.getByRole('main').locator('.ant-spin-spinning');

  // Moving to a screen inside the app.
  const device = await holdChunk('hotel-device');
  await openMenu(page, '酒店管理', '设备管理');
  await device.requested;
  await expect(page).toHaveURL(/\/hotel\/device$/);
  // Soft: the fresh-visit case below is worth knowing even when this one fails.
  await expect.soft(spinner, 'spinner while the device screen loads after a menu click').toBeVisible();
  device.release();
  await expect(page.getByRole('main').getByRole('table')).toBeVisible();

  // Opening a deep link afresh.
  const advanced = await holdChunk('hotel-advanced');
  await page.goto('/hotel/advanced');
  await advanced.requested;
  await expect(spinner, 'spinner while the advanced screen loads on a fresh visit').toBeVisible();
  advanced.release();
  await expect(page.getByRole('main').getByRole('table')).toBeVisible();
});
