/** A role granting only the device menu: the user sees only it and is refused everything else. */
import { Api } from './support/api';
import { expect, test } from './support/fixtures';
import { openScreen } from './support/list-screen';
import { sidebar, unknownScreen } from './support/shell';

test('a user whose role grants only the device menu sees only it and is refused elsewhere', async ({ page, signIn, adminApi, request, shot }) => {
  const menus = await adminApi.menusWithResources();
  const device = menus.find((m) => m.element === 'hotel/device');
  expect(device, 'the seeded device menu').toBeTruthy();
  const { userName, password } = await adminApi.createRoleWithUser([
    { type: 'menu', resource: device!.id },
    ...device!.resources.map((r) => ({ type: 'resource' as const, resource: r.id })),
  ]);

  await signIn(page, userName, password);
  await expect(sidebar(page).locator('.ant-menu-title-content')).toHaveText(['酒店管理', '设备管理']);
  await openScreen(page, { parent: '酒店管理', child: '设备管理', inquire: '/hotel/device/inquire' });
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
