/** 数据字典 (sys/dict): list, add, edit, bind to a resource and unbind. */
import { uniq } from './support/api';
import { expect, test } from './support/fixtures';
import { buttonName, callDuring, dialog, expectToast, fill, openScreen, row, rowAction, saveDialog } from './support/list-screen';

const screen = { parent: '系统管理', child: '数据字典', inquire: '/sys/dict/inquire' };

test('dictionaries: add and edit save and reload, bind and unbind toast the server msg', async ({ page, signIn, shot }) => {
  await signIn(page);
  expect(await openScreen(page, screen)).toMatchObject({ size: 20, current: 1 });
  await expect(row(page, 'device_type').first()).toBeVisible();

  const code = uniq('e2e_code');
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const add = dialog(page, '新增字典');
  await fill(add, { 字典编码: code, 名称: '测试项', 值: 'v1' });
  const created = await saveDialog(page, add, '/sys/dict/creation', screen.inquire);
  await expectToast(page, created.envelope.msg);
  await expect(row(page, code)).toContainText('测试项');

  await rowAction(page, code, '编辑');
  const edit = dialog(page, '编辑字典');
  await fill(edit, { 名称: '测试项二' });
  const edited = await saveDialog(page, edit, '/sys/dict/edit', screen.inquire);
  await expectToast(page, edited.envelope.msg);
  await expect(row(page, code)).toContainText('测试项二');
  await shot(page, 'dicts');

  const listed = await callDuring(page, '/sys/resource/inquires', () => rowAction(page, code, '绑定资源'));
  expect(listed.body).toMatchObject({ size: 20, current: 1 });
  const binding = dialog(page, new RegExp(`绑定资源：测试项二`));
  // Resource names repeat across menus (every screen has a 状态 field): follow the row by its key.
  const key = await binding.locator('tbody tr[data-row-key]').first().getAttribute('data-row-key');
  const target = binding.locator(`tr[data-row-key="${key}"]`);

  const bound = await callDuring(page, '/sys/dict/bind', () => target.getByRole('button', { name: buttonName('绑定') }).click());
  expect(bound.envelope.code).toBe(200);
  await expectToast(page, bound.envelope.msg);
  await expect(target).toContainText('已绑定');
  await expect(target.getByRole('button', { name: buttonName('解绑') })).toBeVisible();
  await shot(page, 'dict-bind');

  const unbound = await callDuring(page, '/sys/dict/unbind', () => target.getByRole('button', { name: buttonName('解绑') }).click());
  expect(unbound.envelope.code).toBe(200);
  await expectToast(page, unbound.envelope.msg);
  await expect(target).toContainText('未绑定');
  // By its text, not its accessible name: see the report (the button once stayed in its loading
  // state after 解绑, which adds "loading" to the name).
  await expect(target.getByRole('button').filter({ hasText: buttonName('绑定') })).toBeVisible();
});
