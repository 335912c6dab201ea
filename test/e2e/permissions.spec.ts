/** A role granting only the device menu: the user sees only it and is refused everything else. */
import { Api } from './support/api';
import { expect, test } from './support/fixtures';
import { buttonName, recordAnswers } from './support/list-screen';
import { openMenu, sidebar, unknownScreen } from './support/shell';

test('a user whose role grants only the device menu sees only it and is refused elsewhere', async ({ page, signIn, adminApi, request, shot }) => {
  const menus = await adminApi.menusWithResources();
  const device = menus.find((m) => m.element === 'hotel/device');
  expect(device, 'the seeded device menu').toBeTruthy();
  const { userName, password } = await adminApi.createRoleWithUser([
    { type: 'menu', resource: device!.id },
    ...device!.resources.map((r) => ({ type: 'resource' as const, resource: r.id })),
  ]);

  // Their landing screen may already be the device list (no panel for them), so its call is
  // recorded from the start rather than awaited after a click.
  const deviceAnswers = recordAnswers(page, '/hotel/device/inquire');
  await signIn(page, userName, password);
  await expect(sidebar(page).locator('.ant-menu-title-content')).toHaveText(['酒店管理', '设备管理']);
  await openMenu(page, '酒店管理', '设备管理');
  await expect(page).toHaveURL(/\/hotel\/device$/);
  await expect(page.getByRole('main').getByRole('table')).toBeVisible();
  await expect.poll(() => deviceAnswers.map((a) => a.code)).toContain(200);
  expect(deviceAnswers.every((a) => a.code === 200)).toBe(true);
  await shot(page, 'permissions-device-only');

  // The server is the security: their token is refused for anything not granted.
  const user = await Api.login(request, userName, password);
  for (const key of ['/sys/user/inquire', '/sys/role/inquire', '/sys/menu/inquire', '/hotel/advanced/inquire'] as const) {
    expect((await user.call(key, { size: 20, current: 1 })).code, key).toBe(403);
  }
  expect((await user.call('/sys/panel/inquire')).code).toBe(403);

  // Typing a screen's path shows the unknown screen (no such route for them) or an error toast.
  await page.goto('/sys/user');
  await expect(unknownScreen(page).or(page.locator('.ant-message-error'))).toBeVisible();
});

test('a read-only role sees no control it may not use: no 新增, 编辑, 重置密钥 or 重启 on devices, no 新增 on users', async ({ page, signIn, adminApi, shot }) => {
  const menus = await adminApi.menusWithResources();
  const readOnly = (element: string) => {
    const menu = menus.find((m) => m.element === element);
    expect(menu, element).toBeTruthy();
    const inquire = menu!.resources.find((r) => r.type === 'api_inquire');
    return [
      { type: 'menu' as const, resource: menu!.id },
      { type: 'resource' as const, resource: inquire!.id },
    ];
  };
  const sn = `RO-${Date.now()}`;
  await adminApi.ok('/hotel/device/creation', { name: `只读 ${sn}`, sn, type: 'lock', state: 1, remark: '' });
  const { userName, password } = await adminApi.createRoleWithUser([...readOnly('hotel/device'), ...readOnly('sys/user')]);

  await signIn(page, userName, password);
  await openMenu(page, '酒店管理', '设备管理');
  const main = page.getByRole('main');
  const row = main.getByRole('row').filter({ hasText: sn });
  await expect(row).toBeVisible();
  for (const label of ['新增', '导入', '导出']) await expect(main.getByRole('button', { name: buttonName(label) })).toHaveCount(0);
  for (const label of ['编辑', '重置密钥', '重启', '详情']) await expect(row.getByRole('button', { name: buttonName(label) })).toHaveCount(0);
  await shot(page, 'permissions-device-read-only');

  await openMenu(page, '系统管理', '用户管理');
  await expect(main.getByRole('row').filter({ hasText: userName })).toBeVisible();
  await expect(main.getByRole('button', { name: buttonName('新增') })).toHaveCount(0);
  await expect(main.getByRole('button', { name: buttonName('重置密码') })).toHaveCount(0);
});
