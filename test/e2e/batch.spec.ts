/**
 * Batch actions and device deletion (issue 25): tick devices, 批量禁用 after a confirmation, and
 * delete a device registered by mistake, whose key stops working at once. Screenshots at 1440 and
 * 390 wide.
 */
import { uniq } from './support/api';
import { expect, test } from './support/fixtures';
import { buttonName, callDuring, confirmPopup, dialog, expectToast, openScreen, row, rowAction } from './support/list-screen';

const screen = { parent: '酒店管理', child: '设备管理', inquire: '/hotel/device/inquire' };

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`devices at ${viewport.width} wide: 批量禁用 the ticked rows, and 删除 one whose key then stops working`, async ({ page, signIn, adminApi, request, shot }) => {
    test.setTimeout(120_000);
    const prefix = uniq('BATCH-');
    const created = await Promise.all(
      [1, 2].map((n) => adminApi.ok('/hotel/device/creation', { name: `批量 ${prefix}-${n}`, sn: `${prefix}-${n}`, type: 'lock', state: 1, remark: '' })),
    );
    await signIn(page);
    await openScreen(page, screen);
    // Signed in and navigated through the sidebar at the default size; the screen itself is what is looked at narrow.
    await page.setViewportSize(viewport);
    const main = page.getByRole('main');
    await main.getByRole('textbox', { name: '序列号' }).fill(prefix);
    await main.getByRole('button', { name: buttonName('查询') }).click();
    await expect(row(main, `${prefix}-1`)).toBeVisible();

    for (const n of [1, 2]) await row(main, `${prefix}-${n}`).getByRole('checkbox').check();
    await expect(main.getByText('已选 2 项')).toBeVisible();
    await main.getByRole('button', { name: buttonName('批量禁用') }).click();
    const ask = dialog(page, '批量禁用');
    await expect(ask).toContainText('确定禁用所选的 2 台设备？');
    await shot(page, `device-batch-${viewport.width}`);
    const done = await callDuring(page, '/hotel/device/batch/state', () => ask.getByRole('button', { name: buttonName('确定') }).click());
    expect(done.body).toEqual({ ids: created.map((c) => c.device.id), state: 0 });
    await expectToast(page, '已禁用 2 台设备');
    for (const n of [1, 2]) await expect(row(main, `${prefix}-${n}`)).toContainText('禁用');

    await rowAction(main, `${prefix}-2`, '删除');
    const removed = await callDuring(page, '/hotel/device/removal', () => confirmPopup(page));
    expect(removed.envelope.code).toBe(200);
    await expectToast(page, removed.envelope.msg);
    await expect(row(main, `${prefix}-2`)).toHaveCount(0);
    await shot(page, `device-removed-${viewport.width}`);
    const beat = await request.post('/api/hotel/device/heartbeat', { headers: { 'x-device-key': created[1].deviceKey }, data: { sn: `${prefix}-2` } });
    expect((await beat.json()).code).toBe(401);
  });
}
