/** 用户管理 (sys/user): list, add, edit with the success toasts of docs/client.md (Toasts). */
import { uniq } from './support/api';
import { expect, test } from './support/fixtures';
import { buttonName, callDuring, choose, control, dialog, expectToast, fill, openScreen, row, rowAction, saveDialog } from './support/list-screen';

const screen = { parent: '系统管理', child: '用户管理', inquire: '/sys/user/inquire' };

test('users: the list asks for 20, add and edit save and reload with their toasts', async ({ page, signIn, adminApi, shot }) => {
  const role = await adminApi.ok('/sys/role/creation', { name: uniq('前台'), remark: '', state: 1 });
  await signIn(page);
  expect(await openScreen(page, screen)).toMatchObject({ size: 20, current: 1 });
  await expect(row(page, 'admin')).toBeVisible();

  const userName = uniq('clerk_');
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const add = dialog(page, '新增用户');
  // Each label names its own input (the filter form above has a 用户名 field too): what a screen
  // reader announces, and what getByLabel relies on.
  await expect.soft(add.getByLabel('用户名', { exact: true }), 'dialog label 用户名 → its own input').toBeVisible();
  await fill(add, { 用户名: userName, 昵称: '前台小王', 密码: 'Front-Desk-2024' });
  await choose(page, add, '角色', role.name);
  await shot(page, 'users-add');
  const created = await saveDialog(page, add, '/sys/user/creation', screen.inquire);
  expect(created.body).toMatchObject({ userName, nickName: '前台小王', roleId: role.id });
  // docs/client.md (Toasts): 账号添加成功 plus the user name (a separator between them is allowed).
  await expectToast(page, new RegExp(`^账号添加成功[：:\\s]?${userName}$`));
  // The shared database holds more users than one page by now: find the new one as a person would.
  await page.getByRole('textbox', { name: '用户名' }).fill(userName);
  await callDuring(page, screen.inquire, () => page.getByRole('button', { name: buttonName('查询') }).click());
  await expect(row(page, userName)).toContainText(role.name);

  await rowAction(page, userName, '编辑');
  const edit = dialog(page, '编辑用户');
  await expect(control(edit, '用户名')).toHaveCount(0); // the name is fixed after creation
  await fill(edit, { 昵称: '前台老王' });
  const edited = await saveDialog(page, edit, '/sys/user/edit', screen.inquire);
  expect(edited.body).not.toHaveProperty('password');
  await expectToast(page, edited.envelope.msg);
  await expect(row(page, userName)).toContainText('前台老王');
  await shot(page, 'users');
});
