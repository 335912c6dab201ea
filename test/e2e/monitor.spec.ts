/**
 * 系统监控 (issue 9) as an operator meets it: an edit found in 操作日志 with its before/after, the
 * sign-ins in 登录日志, and a second browser forced out from 在线用户.
 */
import type { Page } from '@playwright/test';

import { DEVICE_KEY_HEADER } from '../../src/contract/constants';
import { uniq } from './support/api';
import { ANSWER_TIMEOUT_MS, baseUrl } from './support/env';
import { expect, test } from './support/fixtures';
import { buttonName, callDuring, choose, confirmPopup, control, dialog, expectToast, fill, openScreen, row, rowAction, saveDialog } from './support/list-screen';
import { settle, storedSession, trackApiCalls } from './support/session';
import { openMenu, shownScreen } from './support/shell';

const users = { parent: '系统管理', child: '用户管理', inquire: '/sys/user/inquire' };
const operations = { parent: '系统监控', child: '操作日志', inquire: '/monitor/operation/inquire' };
const logins = { parent: '系统监控', child: '登录日志', inquire: '/monitor/login/inquire' };
const online = { parent: '系统监控', child: '在线用户', inquire: '/monitor/online/inquire' };

/** The search form above a list. */
const filterForm = (page: Page) => shownScreen(page).locator('form').first();

async function search(page: Page, inquire: string) {
  return callDuring(page, inquire, () =>
    filterForm(page)
      .getByRole('button', { name: buttonName('查询') })
      .click(),
  );
}

test('操作日志: an edited nickname shows before and after in the detail drawer', async ({ page, signIn, adminApi, shot }) => {
  const userName = uniq('audit_');
  await adminApi.ok('/sys/user/creation', { userName, nickName: '审计前', password: 'Audit-Pass-2024', state: 1, roleId: null });
  await signIn(page);

  await openScreen(page, users);
  await rowAction(page, userName, '编辑');
  const edit = dialog(page, '编辑用户');
  await fill(edit, { 昵称: '审计后' });
  await saveDialog(page, edit, '/sys/user/edit', users.inquire);

  await openScreen(page, operations);
  // Its creation and its edit, newest first.
  await expect(row(page, userName)).toHaveCount(2);
  await settle(page);
  await shot(page, 'monitor-operation');
  const filters = filterForm(page);
  await choose(page, filters, '模块', '用户管理');
  await choose(page, filters, '操作', '编辑用户');
  await control(filters, '操作人').fill('admin');
  const searched = await search(page, operations.inquire);
  expect(searched.body).toMatchObject({ params: { module: '用户管理', action: '编辑用户', operatorName: 'admin' } });
  const record = row(page, userName);
  // The answer is in; the table shows it once React has rendered it (until then both records).
  await expect(record).toHaveCount(1);
  await expect(record).toContainText('成功');

  await callDuring(page, '/monitor/operation/detail', () => record.getByRole('button', { name: buttonName('详情') }).click());
  const drawer = dialog(page, '操作详情：用户管理 · 编辑用户');
  const change = drawer.getByRole('row').filter({ hasText: '昵称' });
  await expect(change).toContainText('审计前');
  await expect(change).toContainText('审计后');
  await expect(drawer).toContainText('"nickName": "审计后"');
  await settle(page);
  await shot(page, 'monitor-operation-detail');
});

test('登录日志: sign-ins with browser and OS, and a refused one', async ({ page, signIn, adminApi, shot }) => {
  const refused = await adminApi.call('/sys/user/verify', { userName: 'admin', password: 'Not-The-Password-9' });
  expect(refused.code).not.toBe(200);
  await signIn(page);
  await openScreen(page, logins);
  await control(filterForm(page), '用户名').fill('admin');
  const searched = await search(page, logins.inquire);
  expect(searched.body).toMatchObject({ params: { userName: 'admin' } });
  await expect(page.getByRole('main').getByRole('row').filter({ hasText: '密码错误' }).first()).toBeVisible();
  // This browser's sign-in, with what its user agent says.
  await expect(page.getByRole('main').getByRole('row').filter({ hasText: 'Chrome' }).filter({ hasText: '成功' }).first()).toBeVisible();
  await settle(page);
  await shot(page, 'monitor-login');
});

test('在线用户: a second browser forced out is sent to the login at once', async ({ page, signIn, adminApi, browser, shot }) => {
  test.setTimeout(120_000);
  const menus = await adminApi.menusWithResources();
  const device = menus.find((menu) => menu.element === 'hotel/device');
  expect(device, 'the seeded device menu').toBeTruthy();
  const { userName, password } = await adminApi.createRoleWithUser([
    { type: 'menu', resource: device!.id },
    ...device!.resources.map((resource) => ({ type: 'resource' as const, resource: resource.id })),
  ]);

  // The second person, in a browser of their own.
  const elsewhere = await browser.newContext({ baseURL: baseUrl() });
  const theirPage = await elsewhere.newPage();
  trackApiCalls(theirPage);
  await signIn(theirPage, userName, password);
  await openMenu(theirPage, '酒店管理', '设备管理');
  await expect(theirPage.getByRole('main').getByRole('table')).toBeVisible();
  await settle(theirPage);

  await signIn(page);
  await openScreen(page, online);
  const mine = row(page, '当前会话');
  await expect(mine.getByRole('button', { name: buttonName('强制下线') })).toBeDisabled();
  const theirs = row(page, userName);
  await expect(theirs).toContainText('Chrome');
  await settle(page);
  await shot(page, 'monitor-online');

  await theirs.getByRole('button', { name: buttonName('强制下线') }).click();
  const reloaded = page.waitForResponse((response) => response.url().endsWith(online.inquire), { timeout: ANSWER_TIMEOUT_MS });
  const forced = await callDuring(page, '/monitor/online/revoke', () => confirmPopup(page));
  expect(forced.envelope.code).toBe(200);
  await expectToast(page, forced.envelope.msg);
  await reloaded;
  await expect(row(page, userName)).toHaveCount(0);

  // The live stream takes them to the login at once, saying why (test/e2e/live.spec.ts too).
  await expect(theirPage).toHaveURL(/\/sys\/verify/, { timeout: ANSWER_TIMEOUT_MS });
  await expect(theirPage.locator('.verify-notice')).toContainText('强制下线');
  expect((await storedSession(theirPage)).token).toBeNull();
  await elsewhere.close();

  // The force logout is on record in the login log.
  await openScreen(page, logins);
  await control(filterForm(page), '用户名').fill(userName);
  await search(page, logins.inquire);
  await expect(page.getByRole('main').getByRole('row').filter({ hasText: '强制下线' })).toHaveCount(1);
});

test('设备管理: a device’s status records come from the operation log', async ({ page, signIn, adminApi, request, shot }) => {
  const sn = uniq('SN-AUDIT-');
  const created = await adminApi.ok('/hotel/device/creation', { name: uniq('门锁'), sn, type: 'lock', state: 1, remark: '' });
  // Its first heartbeat brings it online: a status change, recorded once.
  const beat = await request.post('/api/hotel/device/heartbeat', { headers: { [DEVICE_KEY_HEADER]: created.deviceKey }, data: { sn } });
  expect((await beat.json()).code).toBe(200);

  await signIn(page);
  await openScreen(page, { parent: '酒店管理', child: '设备管理', inquire: '/hotel/device/inquire' });
  const history = await callDuring(page, '/monitor/operation/inquire', () => rowAction(page, sn, '状态记录'));
  expect(history.body).toMatchObject({ params: { targetType: 'device', targetId: String(created.device.id) } });
  const drawer = dialog(page, `状态记录：${created.device.name}`);
  await expect(drawer.getByRole('row').filter({ hasText: '设备上线' })).toContainText(sn);
  await expect(drawer.getByRole('row').filter({ hasText: '新增设备' })).toContainText('admin');
  await settle(page);
  await shot(page, 'monitor-device-status');
});
