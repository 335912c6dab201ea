/**
 * Lists (issue 11): a column sort and the filters carry into the .xlsx export, whose downloaded
 * rows are checked; an import with one bad row shows the row's problem and creates nothing, the
 * fixed file creates the users and shows their one-time passwords.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';

import { uniq } from './support/api';
import { ANSWER_TIMEOUT_MS } from './support/env';
import { expect, test } from './support/fixtures';
import { buttonName, callDuring, dialog, expectToast, openScreen, row } from './support/list-screen';

const screen = { parent: '系统管理', child: '用户管理', inquire: '/sys/user/inquire' };

async function rowsOf(file: string): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const rows: unknown[][] = [];
  book.worksheets[0].eachRow((line) => rows.push((line.values as unknown[]).slice(1)));
  return rows;
}

async function xlsxFile(name: string, rows: unknown[][]): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('导入数据');
  rows.forEach((line) => sheet.addRow(line));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lists-e2e-')), name);
  await book.xlsx.writeFile(file);
  return file;
}

test('lists: the export downloads the filtered list in the column order chosen', async ({ page, signIn, adminApi, shot }) => {
  const prefix = uniq('exp');
  for (const [suffix, state] of [
    ['_b', 1],
    ['_a', 1],
    ['_c', 0],
  ] as const) {
    await adminApi.ok('/sys/user/creation', { userName: `${prefix}${suffix}`, nickName: `导出${suffix}`, password: 'Str0ng-Pass-e2e', state, roleId: null });
  }
  await signIn(page);
  await openScreen(page, screen);
  const main = page.getByRole('main');
  await main.locator('form').getByPlaceholder('请输入用户名').fill(prefix);
  await callDuring(page, screen.inquire, () => main.getByRole('button', { name: buttonName('查询') }).click());
  const header = main.locator('th').filter({ hasText: /^用户名$/ });
  await callDuring(page, screen.inquire, () => header.click());
  const sorted = await callDuring(page, screen.inquire, () => header.click());
  expect(sorted.body).toMatchObject({ params: { userName: prefix }, sort: { field: 'userName', order: 'descend' } });
  await expect(main.getByRole('row').nth(1)).toContainText(`${prefix}_c`);

  const [download] = await Promise.all([page.waitForEvent('download'), main.getByRole('button', { name: /导\s*出/ }).click()]);
  expect(download.suggestedFilename()).toMatch(/^用户列表-\d{12}\.xlsx$/);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lists-e2e-')), download.suggestedFilename());
  await download.saveAs(file);
  const rows = await rowsOf(file);
  expect(rows[0]).toEqual(['用户名', '昵称', '状态', '角色', '创建时间', '更新时间']);
  expect(rows.slice(1).map((line) => line.slice(0, 3))).toEqual([
    [`${prefix}_c`, '导出_c', '禁用'],
    [`${prefix}_b`, '导出_b', '启用'],
    [`${prefix}_a`, '导出_a', '启用'],
  ]);
  await shot(page, 'lists-export');
});

test('lists: an import with one bad row shows it and creates nothing; the fixed file creates the users', async ({ page, signIn, adminApi, shot }) => {
  const prefix = uniq('imp');
  const good = [`${prefix}_a`, '导入甲', '启用', ''];
  const bad = await xlsxFile('users-bad.xlsx', [['用户名*', '昵称*', '状态', '角色'], good, [`${prefix}_b`, '', '禁用', '']]);
  const fixed = await xlsxFile('users-fixed.xlsx', [['用户名*', '昵称*', '状态', '角色'], good, [`${prefix}_b`, '导入乙', '禁用', '']]);
  const exists = async (userName: string) => (await adminApi.ok('/sys/user/inquire', { size: 20, current: 1, params: { userName } })).total > 0;

  await signIn(page);
  await openScreen(page, screen);
  await page
    .getByRole('main')
    .getByRole('button', { name: /导\s*入/ })
    .click();
  const box = dialog(page, '导入用户');
  const input = box.locator('input[type=file]');

  await input.setInputFiles(bad);
  await expect(box.getByText(/可新增 1 条，可更新 0 条，1 行有错误/)).toBeVisible();
  await expect(row(box, '昵称不能为空')).toContainText('3');
  await expect(row(box, '昵称不能为空')).toContainText('昵称');
  await expect(box.getByRole('button', { name: buttonName('导入') })).toBeDisabled();
  await shot(page, 'lists-import-errors');
  expect(await exists(`${prefix}_a`)).toBe(false);

  await input.setInputFiles(fixed);
  await expect(box.getByText(/没有错误，可以导入/)).toBeVisible();
  const reloaded = page.waitForResponse((response) => new URL(response.url()).pathname === `/api${screen.inquire}`, { timeout: ANSWER_TIMEOUT_MS });
  await box.getByRole('button', { name: buttonName('导入') }).click();
  await expectToast(page, '导入成功：新增 2 条，更新 0 条');
  const passwords = row(box, `${prefix}_a`).locator('code');
  await expect(passwords).toHaveText(/^[A-Za-z0-9_-]{16}$/);
  await shot(page, 'lists-import-done');
  await reloaded;
  expect(await exists(`${prefix}_a`)).toBe(true);
  expect(await exists(`${prefix}_b`)).toBe(true);
  await expect(row(page.getByRole('main'), `${prefix}_b`)).toContainText('禁用');
  await box.getByRole('button', { name: buttonName('完成') }).click();
  await expect(box).toBeHidden();
});
