/**
 * 定时任务 (sys/schedule): an invalid cron is refused with a clear message and nothing saved; a
 * valid every-second schedule really runs and fills its log; edit pauses it; 立即执行 runs once.
 */
import { uniq } from './support/api';
import { expect, test } from './support/fixtures';
import { buttonName, callDuring, choose, dialog, expectToast, fill, openedDialog, openScreen, row, rowAction, saveDialog } from './support/list-screen';

const screen = { parent: '系统管理', child: '定时任务', inquire: '/sys/schedule/inquire' };

test('schedules: invalid cron refused, a valid one runs and logs, edit and run once', async ({ page, signIn, adminApi, shot }) => {
  await signIn(page);
  expect(await openScreen(page, screen)).toMatchObject({ size: 20, current: 1 });

  const name = uniq('清理会话');
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const add = await openedDialog(page, '新增定时任务');
  // The cron's preview answers while the user reaches for 保存 (its next run times, or why the
  // cron is refused), in room it keeps from the start: 保存 stays where the user aimed. (It moved
  // down as five run times arrived, and a press then was lost.)
  const save = add.getByRole('button', { name: buttonName('保存') });
  const aimedAt = (await save.boundingBox())?.y;
  await fill(add, { 'Cron 表达式': '* * * * * *' });
  await expect(add.getByLabel('最近执行时间')).toContainText('最近 5 次执行');
  expect((await save.boundingBox())?.y, '保存 where it was before the run times arrived').toBe(aimedAt);
  await fill(add, { 任务名称: name, 'Cron 表达式': 'every day at noon' });
  await expect(add.getByRole('alert').filter({ hasText: /Cron/i })).toBeVisible();
  expect((await save.boundingBox())?.y, '保存 where it was before the refusal arrived').toBe(aimedAt);
  await choose(page, add, '任务类型', '清理过期会话');
  const refused = await callDuring(page, '/sys/schedule/creation', () => add.getByRole('button', { name: buttonName('保存') }).click());
  expect(refused.envelope.code).toBe(400);
  // A refusal is JSON in UTF-8 like any other answer; without the header, non-browser clients
  // (integrators, curl users) read the Chinese msg as mojibake.
  expect.soft(refused.contentType ?? '(no Content-Type header)', 'Content-Type of a 400 envelope').toMatch(/^application\/json;\s*charset=utf-8/i);
  // The same body through the API (raw bytes, read as UTF-8) gives the msg the toast must show.
  const refusal = await adminApi.call('/sys/schedule/creation', refused.body);
  expect(refusal.code).toBe(400);
  expect(refusal.msg).toMatch(/Cron/i);
  await expectToast(page, refusal.msg);
  await expect(add).toBeVisible();
  const none = await adminApi.ok('/sys/schedule/inquire', { size: 20, current: 1, params: { name } });
  expect(none.total, 'nothing saved').toBe(0);

  // Every second (6 fields), running: the scheduler itself must run it.
  await fill(add, { 'Cron 表达式': '* * * * * *' });
  await expect(add.getByLabel('最近执行时间')).toContainText('最近 5 次执行');
  await saveDialog(page, add, '/sys/schedule/creation', screen.inquire);
  await expectToast(page, '保存成功');
  await expect(row(page, name)).toBeVisible();

  await expect(async () => {
    const log = await callDuring(page, '/sys/schedule/log', () => rowAction(page, name, '运行日志'));
    expect(log.body).toMatchObject({ size: 20, current: 1 });
    const drawer = dialog(page, `运行日志：${name}`);
    try {
      await expect(row(drawer, '定时触发').first()).toBeVisible({ timeout: 1_000 });
    } finally {
      await drawer
        .getByRole('button', { name: /close|关闭/i })
        .first()
        .click();
      await expect(drawer).toBeHidden();
    }
  }).toPass({ timeout: 20_000, intervals: [1_000] });

  // Pause it through the edit dialog so it stops running every second.
  await rowAction(page, name, '编辑');
  const edit = dialog(page, '编辑定时任务');
  await edit.getByRole('switch').click();
  const edited = await saveDialog(page, edit, '/sys/schedule/edit', screen.inquire);
  expect(edited.body).toMatchObject({ state: 0, cron: '* * * * * *' });
  await expectToast(page, '保存成功');
  await expect(row(page, name)).toContainText('已暂停');

  const ran = await callDuring(page, '/sys/schedule/run', () => rowAction(page, name, '立即执行'));
  expect(ran.envelope.code).toBe(200);
  await expectToast(page, ran.envelope.msg);
  await rowAction(page, name, '运行日志');
  const drawer = dialog(page, `运行日志：${name}`);
  await expect(row(drawer, '手动执行').first()).toBeVisible();
  await expect(row(drawer, '手动执行').first()).toContainText('成功');
  await shot(page, 'schedule-log');
  await drawer
    .getByRole('button', { name: /close|关闭/i })
    .first()
    .click();
  await shot(page, 'schedules');
});
