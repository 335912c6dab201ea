/**
 * The operator's shell (issue 11): tabs that keep each screen's filters, page and scroll and survive
 * a reload, per user; the panel's charts; the layout at 1280x720 and on a 390-wide phone.
 */
import type { Page } from '@playwright/test';

import { uniq } from './support/api';
import { ADMIN_PASSWORD, ADMIN_USER } from './support/env';
import { expect, test } from './support/fixtures';
import { recordAnswers } from './support/list-screen';
import { settle } from './support/session';
import { openMenu, shownScreen, sidebar } from './support/shell';

const tabBar = (page: Page) => page.locator('.shell-tabs');
const tab = (page: Page, title: string) =>
  tabBar(page)
    .locator('.ant-tabs-tab')
    .filter({ hasText: new RegExp(`^${title}$`) });
const tabTitles = (page: Page) => tabBar(page).locator('.ant-tabs-tab');

test.use({ viewport: { width: 1280, height: 720 } });

test('tabs keep each screen’s filters and scroll, and survive a reload', async ({ page, signIn, adminApi, shot }) => {
  // A few users of our own to filter on. Few: the suite shares one database, and other specs read
  // the first page of the unfiltered user list (the page and its size changer are covered by the
  // client tests).
  const prefix = uniq('tab_');
  for (let i = 0; i < 5; i += 1) {
    await adminApi.ok('/sys/user/creation', { userName: `${prefix}${i}`, nickName: `标签${i}`, password: 'Str0ng-Pass-e2e', state: 1, roleId: null });
  }
  await signIn(page);
  await expect(tabTitles(page)).toHaveText(['控制台']);

  await openMenu(page, '系统管理', '用户管理');
  const pane = shownScreen(page);
  await expect(pane.getByRole('table')).toBeVisible();
  const users = recordAnswers(page, '/sys/user/inquire');
  await pane.getByRole('textbox', { name: '用户名' }).fill(prefix);
  await pane.getByRole('button', { name: /查\s*询/ }).click();
  await expect(pane.getByRole('row').filter({ hasText: prefix })).toHaveCount(5);
  await settle(page);
  // A short window, so the list scrolls in its pane; scroll it down.
  await page.setViewportSize({ width: 1280, height: 480 });
  await pane.evaluate((element) => element.scrollTo(0, 150));
  await expect.poll(() => pane.evaluate((element) => element.scrollTop)).toBe(150);

  await openMenu(page, '酒店管理', '设备管理');
  await expect(shownScreen(page).getByRole('table')).toBeVisible();
  await expect(tabTitles(page)).toHaveText(['控制台', '用户管理', '设备管理']);

  // Back on 用户管理: same filter, same scroll; the rows are read again.
  const readsBefore = users.length;
  await tab(page, '用户管理').click();
  // The list writes its filters back into the query on return.
  await expect(page).toHaveURL(new RegExp(`/sys/user\\?userName=${prefix}$`));
  const back = shownScreen(page);
  await expect(back.getByRole('textbox', { name: '用户名' })).toHaveValue(prefix);
  await expect(back.getByRole('row').filter({ hasText: prefix })).toHaveCount(5);
  await expect.poll(() => back.evaluate((element) => element.scrollTop)).toBe(150);
  await expect.poll(() => users.length).toBeGreaterThan(readsBefore);
  expect(users.at(-1)).toMatchObject({ code: 200 });
  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'tabs-1280x720');
  await expect(sidebar(page).locator('.ant-menu-item-selected')).toHaveText(['用户管理']);
  await expect(page.locator('.shell-breadcrumb')).toHaveText(/系统管理\s*\/\s*用户管理/);

  // A reload restores the tabs, and the shown list its filters from the URL (its scroll starts afresh).
  await page.reload();
  await expect(tabTitles(page)).toHaveText(['控制台', '用户管理', '设备管理']);
  await expect(tab(page, '用户管理')).toHaveClass(/ant-tabs-tab-active/);
  await expect(shownScreen(page).getByRole('textbox', { name: '用户名' })).toHaveValue(prefix);
  await expect(shownScreen(page).getByRole('row').filter({ hasText: prefix })).toHaveCount(5);

  // Closing from the context menu drops the tab, and it stays closed across a reload.
  await tab(page, '设备管理').click({ button: 'right' });
  await page.locator('.ant-dropdown:visible').getByText('关闭', { exact: true }).click();
  await expect(tabTitles(page)).toHaveText(['控制台', '用户管理']);
  await page.reload();
  await expect(tabTitles(page)).toHaveText(['控制台', '用户管理']);
});

test('the next user to sign in on the browser starts with their own tabs only', async ({ page, signIn, adminApi }) => {
  const menus = await adminApi.menusWithResources();
  const device = menus.find((m) => m.element === 'hotel/device')!;
  const operator = await adminApi.createRoleWithUser([{ type: 'menu', resource: device.id }, ...device.resources.map((r) => ({ type: 'resource' as const, resource: r.id }))]);

  await signIn(page);
  await openMenu(page, '系统管理', '用户管理');
  await openMenu(page, '酒店管理', '设备管理');
  await expect(tabTitles(page)).toHaveText(['控制台', '用户管理', '设备管理']);

  await page.locator('.shell-user').click();
  await page.getByText('退出登录').click();
  await expect(page).toHaveURL(/\/sys\/verify/);

  await signIn(page, operator.userName, operator.password);
  await expect(tabTitles(page)).toHaveText(['设备管理']);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('shell.tabs.')))).toEqual([]);
});

test('the panel draws its four charts from the server’s series', async ({ page, signIn, adminApi, shot }) => {
  for (const [type, count] of [
    ['lock', 3],
    ['aircon', 2],
    ['tv', 1],
  ] as const) {
    for (let i = 0; i < count; i += 1) {
      await adminApi.ok('/hotel/device/creation', { name: `图表${type}${i}`, sn: uniq(`CH-${type}-`), type, state: 1, remark: '' });
    }
  }
  const schedules = await adminApi.ok('/sys/schedule/inquire', { size: 20, current: 1, params: { name: '设备在线统计' } });
  await adminApi.ok('/sys/schedule/run', { id: schedules.records[0].id });

  await signIn(page);
  const panel = shownScreen(page);
  for (const title of ['近 24 小时在线设备', '近 14 天登录次数', '近 14 天定时任务执行', '设备类型分布']) {
    const card = panel.locator('.ant-card').filter({ hasText: title });
    await expect(card.locator('svg').first()).toBeVisible();
  }
  const figures = await adminApi.ok('/sys/panel/inquire');
  await expect(panel.getByRole('img', { name: /^近 24 小时在线设备/ })).toHaveAttribute('aria-label', `近 24 小时在线设备：当前 ${figures.devicesOnline} / ${figures.devices} 台`);
  await expect(panel.getByRole('img', { name: /^设备类型分布/ })).toHaveAttribute('aria-label', /智能门锁 \d+ 台/);
  const types = panel.locator('.ant-card').filter({ hasText: '设备类型分布' });
  await expect(types).toContainText('智能门锁');
  await shot(page, 'panel-1280x720');
  await types.scrollIntoViewIfNeeded();
  await shot(page, 'panel-charts-1280x720');

  // The shell fills the window: no page scrollbar, the panel scrolls in its own pane.
  const fit = await page.evaluate(() => ({ height: document.documentElement.scrollHeight, window: innerHeight }));
  expect(fit.height).toBeLessThanOrEqual(fit.window);
});

test('collapses the sidebar to icons and keeps it so after a reload', async ({ page, signIn, shot }) => {
  await signIn(page);
  await page.getByRole('button', { name: '收起侧边栏' }).click();
  await expect(page.locator('.ant-layout-sider')).toHaveClass(/ant-layout-sider-collapsed/);
  await page.reload();
  await expect(page.locator('.ant-layout-sider')).toHaveClass(/ant-layout-sider-collapsed/);
  await expect(page.locator('.ant-layout-sider')).toHaveCSS('width', '64px');
  await expect(page.getByText('在线设备 / 设备总数')).toBeVisible();
  // Collapsed, a submenu opens as a pop-up beside the icons.
  await page.locator('.ant-layout-sider .ant-menu-submenu').first().hover();
  await expect(page.locator('.ant-menu-submenu-popup:visible')).toContainText('用户管理');
  await shot(page, 'collapsed-1280x720');
  await page.getByRole('button', { name: '展开侧边栏' }).click();
  await expect(page.locator('.ant-layout-sider')).toHaveCSS('width', '208px');
});

test('the menu search opens a screen by its pinyin initials', async ({ page, signIn }) => {
  await signIn(page);
  await page.keyboard.press('Control+k');
  const input = page.getByLabel('菜单名称或拼音首字母');
  await input.fill('sbgl');
  await expect(page.getByRole('option')).toHaveText([/设备管理/]);
  await input.press('Enter');
  await expect(page).toHaveURL(/\/hotel\/device$/);
  await expect(tab(page, '设备管理')).toHaveClass(/ant-tabs-tab-active/);
});

test.describe('on a 390-wide phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  // Signed in by hand: the signIn fixture waits for the desktop sidebar, which a phone does not have.
  test('the menu is a drawer and a list screen stays usable', async ({ page, shot }) => {
    await page.goto('/sys/verify');
    await page.getByPlaceholder('用户名').fill(ADMIN_USER);
    await page.getByPlaceholder('密码').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await expect(page.getByText('在线设备 / 设备总数')).toBeVisible();
    await settle(page);
    await expect(page.locator('.ant-layout-sider')).toHaveCount(0);
    await shot(page, 'panel-390x844');

    await page.getByRole('button', { name: '打开菜单' }).click();
    const drawer = page.locator('.shell-drawer');
    await expect(drawer).toBeVisible();
    // Let it finish sliding in before the picture.
    await expect.poll(() => drawer.evaluate((element) => element.getBoundingClientRect().left)).toBe(0);
    await shot(page, 'drawer-390x844');
    const device = drawer.getByRole('menuitem', { name: /设备管理$/ });
    if (!(await device.isVisible())) await drawer.getByRole('menuitem', { name: /酒店管理$/ }).click();
    await device.click();
    await expect(page).toHaveURL(/\/hotel\/device$/);
    await expect(drawer).toBeHidden();
    await expect(shownScreen(page).getByRole('table')).toBeVisible();
    await expect(tabTitles(page)).toHaveText(['控制台', '设备管理']);
    await settle(page);
    await shot(page, 'devices-390x844');

    // Nothing wider than the screen but the table, which scrolls inside its own box.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(overflow).toBeLessThanOrEqual(390);
  });
});
