/** 角色管理 (sys/role): list, add, edit, the grant tree (every menu, no pager) and users (10 a page). */
import { uniq } from './support/api';
import { expect, test } from './support/fixtures';
import { buttonName, callDuring, confirmPopup, dialog, expectToast, fill, openScreen, row, rowAction, saveDialog } from './support/list-screen';

const screen = { parent: '系统管理', child: '角色管理', inquire: '/sys/role/inquire' };

test('roles: add and edit save and reload with the server msg as toast', async ({ page, signIn, shot }) => {
  await signIn(page);
  expect(await openScreen(page, screen)).toMatchObject({ size: 20, current: 1 });
  await expect(row(page, '超级管理员')).toBeVisible();

  const name = uniq('客房部');
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const add = dialog(page, '新增角色');
  await fill(add, { 角色名称: name, 备注: '客房服务' });
  const created = await saveDialog(page, add, '/sys/role/creation', screen.inquire);
  await expectToast(page, created.envelope.msg);
  await expect(row(page, name)).toContainText('客房服务');

  await rowAction(page, name, '编辑');
  const edit = dialog(page, '编辑角色');
  await fill(edit, { 备注: '客房与布草' });
  const edited = await saveDialog(page, edit, '/sys/role/edit', screen.inquire);
  await expectToast(page, edited.envelope.msg);
  await expect(row(page, name)).toContainText('客房与布草');
  await shot(page, 'roles');
});

test('roles: the grant tree shows every menu, half-ticks a menu after unticking one resource and saves', async ({ page, signIn, adminApi, shot }) => {
  const role = await adminApi.ok('/sys/role/creation', { name: uniq('工程部'), remark: '', state: 1 });
  await signIn(page);
  await openScreen(page, screen);

  const listed = await callDuring(page, '/sys/menu/resources', () => rowAction(page, role.name, '授权'));
  expect(listed.body).toMatchObject({ size: 100, current: 1 });
  const grant = dialog(page, `授权：${role.name}`);
  const box = (name: string) => grant.getByRole('checkbox', { name, exact: true });
  // No pager: the last menus are there at once.
  await expect(box('在线用户')).toBeVisible();
  await expect(box('接口文档')).toBeVisible();
  await expect(grant.locator('.ant-pagination')).toHaveCount(0);

  await box('设备管理').check();
  await expect(box('编辑设备')).toHaveAttribute('aria-checked', 'true');
  await box('编辑设备').uncheck();
  await expect(box('设备管理')).toHaveAttribute('aria-checked', 'mixed');
  await expect(box('酒店管理')).toHaveAttribute('aria-checked', 'mixed');
  await shot(page, 'role-permissions');
  const saved = await callDuring(page, '/sys/role/auth', () => grant.getByRole('button', { name: buttonName('保存') }).click());
  expect(saved.envelope.code).toBe(200);
  expect(saved.body).toMatchObject({ roleId: role.id, revoke: [] });
  expect((saved.body.grant as unknown[]).length).toBeGreaterThan(0);
  await expectToast(page, saved.envelope.msg);
  await expect(grant).toBeHidden();

  // Opened again, the dialog shows what the role now holds: the device menu half-ticked.
  await rowAction(page, role.name, '授权');
  await expect(box('设备管理')).toHaveAttribute('aria-checked', 'mixed');
  await expect(box('查询设备')).toHaveAttribute('aria-checked', 'true');
  await expect(box('编辑设备')).toHaveAttribute('aria-checked', 'false');
});

test('roles: users list 10 a page, bind and unbind with the server msg', async ({ page, signIn, adminApi, shot }) => {
  const role = await adminApi.ok('/sys/role/creation', { name: uniq('餐饮部'), remark: '', state: 1 });
  const userName = uniq('waiter_');
  await adminApi.ok('/sys/user/creation', { userName, nickName: '服务员', password: 'Waiter-Pass-2024', state: 1, roleId: null });
  await signIn(page);
  await openScreen(page, screen);

  // SPEC leaves the listing endpoint open: the role's own (/sys/role/user/inquire) or the users'.
  const listed = await callDuring(page, ['/sys/role/user/inquire', '/sys/user/inquire'], () => rowAction(page, role.name, '用户'));
  expect(listed.body).toMatchObject({ size: 10, current: 1, params: { roleId: role.id } });
  const users = dialog(page, `角色用户：${role.name}`);

  await users.getByLabel('搜索用户名').fill(userName);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: userName }).click();
  const bound = await callDuring(page, '/sys/role/bind/user', () => users.getByRole('button', { name: buttonName('绑定用户') }).click());
  expect(bound.envelope.code).toBe(200);
  await expectToast(page, bound.envelope.msg);
  await expect(row(users, userName)).toBeVisible();
  await shot(page, 'role-users');

  await rowAction(users, userName, '解绑');
  const unbound = await callDuring(page, '/sys/role/unbind/user', () => confirmPopup(page));
  expect(unbound.envelope.code).toBe(200);
  await expectToast(page, unbound.envelope.msg);
  await expect(row(users, userName)).toHaveCount(0);
});
