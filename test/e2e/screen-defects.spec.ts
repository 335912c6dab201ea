/**
 * The screens' daily defects (issue 25): a refused field shows its message under the field, list
 * filters survive a reload, a 控制台 count opens its list filtered; each changed screen is shot at
 * 1440 and 390 wide.
 */
import { uniq } from './support/api';
import { expect, test } from './support/fixtures';
import { buttonName, control, dialog, openScreen, row } from './support/list-screen';
import { shownScreen } from './support/shell';

const devices = { parent: '酒店管理', child: '设备管理', inquire: '/hotel/device/inquire' };
const roles = { parent: '系统管理', child: '角色管理', inquire: '/sys/role/inquire' };
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

test('a role name of spaces is refused under the field', async ({ page, signIn, shot }) => {
  await page.setViewportSize(WIDE);
  await signIn(page);
  await openScreen(page, roles);
  await shownScreen(page)
    .getByRole('button', { name: /新\s*增/ })
    .click();
  const add = dialog(page, '新增角色');
  await control(add, '角色名称').fill('   ');
  await add.getByRole('button', { name: buttonName('保存') }).click();
  const item = add.locator('.ant-form-item').filter({ has: page.locator('label[title="角色名称"]') });
  await expect(item.locator('.ant-form-item-explain-error')).toBeVisible();
  await shot(page, 'role-field-error-1440');
});

test('device filters survive a reload; rows keep one line with 更多', async ({ page, signIn, adminApi, shot }) => {
  test.setTimeout(120_000);
  const sn = uniq('SN-UXB-');
  await adminApi.ok('/hotel/device/creation', { name: uniq('门锁'), sn, type: 'lock', state: 1, remark: '' });
  await page.setViewportSize(WIDE);
  await signIn(page);
  await openScreen(page, devices);
  const filters = shownScreen(page).locator('form.ant-form-inline');
  await control(filters, '序列号').fill(sn);
  await filters.getByRole('button', { name: buttonName('查询') }).click();
  await expect(page).toHaveURL(new RegExp(`sn=${sn}`));
  await expect(row(page, sn)).toBeVisible();

  await page.reload();
  await expect(control(shownScreen(page).locator('form.ant-form-inline'), '序列号')).toHaveValue(sn);
  await expect(row(page, sn)).toBeVisible();
  await row(page, sn)
    .getByRole('button', { name: /更\s*多/ })
    .click();
  await expect(page.getByRole('menu').getByRole('button', { name: buttonName('重置密钥') })).toBeVisible();
  await shot(page, 'devices-more-1440');
  await page.keyboard.press('Escape');

  await page.setViewportSize(PHONE);
  await page.goto('/hotel/device');
  await expect(shownScreen(page).getByRole('button', { name: /展\s*开/ })).toBeVisible();
  await shot(page, 'devices-390');
});

test('a 控制台 count opens its list filtered', async ({ page, signIn, shot }) => {
  await page.setViewportSize(WIDE);
  await signIn(page);
  await page.goto('/sys/panel');
  await expect(page.getByText('未清除告警')).toBeVisible();
  await shot(page, 'panel-1440');
  await page.getByRole('link', { name: '未清除告警：查看列表' }).click();
  await expect(page).toHaveURL(/\/hotel\/alarm\?status=active/);
  await expect(shownScreen(page).locator('form.ant-form-inline')).toContainText('活动');
  await shot(page, 'alarms-active-1440');

  await page.setViewportSize(PHONE);
  await page.goto('/sys/panel');
  await expect(page.getByText('未清除告警')).toBeVisible();
  await shot(page, 'panel-390');
});

test('通知记录 at 1366 and 390 wide', async ({ page, signIn, shot }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page);
  await page.goto('/monitor/message');
  await expect(shownScreen(page).getByRole('table').first()).toBeVisible();
  await shot(page, 'messages-1366');
  await page.setViewportSize(PHONE);
  await shot(page, 'messages-390');
});
