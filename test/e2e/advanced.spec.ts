/** 高级设置 (hotel/advanced): add, edit, initialise; the secret only ever shows masked. */
import { uniq } from './support/api';
import { expect, test } from './support/fixtures';
import { callDuring, control, dialog, expectToast, fill, openScreen, row, rowAction, saveDialog } from './support/list-screen';

const screen = { parent: '酒店管理', child: '高级设置', inquire: '/hotel/advanced/inquire' };
const SECRET = 'sk-e2e-9f8e7d6c5b4a';

test('advanced settings: add and edit save with 保存成功, initialise with 初始化成功, secret masked', async ({ page, signIn, shot }) => {
  await signIn(page);
  expect(await openScreen(page, screen)).toMatchObject({ size: 20, current: 1 });

  const name = uniq('京东对接');
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const add = dialog(page, '新增配置');
  await fill(add, { 配置名称: name, 接口地址: 'https://open.example.com/api', 'App Key': 'ak-e2e', 'App Secret': SECRET });
  const created = await saveDialog(page, add, '/hotel/advanced/creation', screen.inquire);
  expect(JSON.stringify(created.envelope)).not.toContain(SECRET);
  await expectToast(page, '保存成功');
  const line = row(page, name);
  await expect(line).toBeVisible();
  await expect(line).not.toContainText(SECRET);
  await expect(line).toContainText(/\*{3,}/);

  const init = await callDuring(page, '/hotel/advanced/jd/edit', () => rowAction(page, name, '初始化'));
  expect(init.envelope.code).toBe(200);
  expect(init.body).toEqual({ id: (created.envelope.data as { id: number }).id });
  await expectToast(page, '初始化成功');
  // The row shows when it was initialised (a date in place of 未初始化) without a page reload.
  await expect(line).not.toContainText('未初始化');
  await expect(line).toContainText(/\d{4}-\d{2}-\d{2}/);

  // Leaving the secret empty on edit keeps the stored one (still masked, still there).
  await rowAction(page, name, '编辑');
  const edit = dialog(page, '编辑配置');
  await expect(control(edit, 'App Secret')).toHaveValue('');
  await fill(edit, { 'App Key': 'ak-e2e-2' });
  const edited = await saveDialog(page, edit, '/hotel/advanced/edit', screen.inquire);
  expect((edited.envelope.data as { appSecretMasked: string }).appSecretMasked).toMatch(/\*/);
  await expectToast(page, '保存成功');
  await expect(line).toContainText('ak-e2e-2');
  await expect(line).not.toContainText(SECRET);
  await shot(page, 'advanced');
});
