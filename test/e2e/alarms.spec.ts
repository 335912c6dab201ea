/**
 * Devices as a hotel runs them: a heartbeat's transition in the 设备详情 drawer, the 告警管理 screen
 * and its per-device-type timeouts (超时设置).
 */
import { uniq } from './support/api';
import { expect, test } from './support/fixtures';
import { expectToast, openScreen, rowAction } from './support/list-screen';

const devices = { parent: '酒店管理', child: '设备管理', inquire: '/hotel/device/inquire' };
const alarms = { parent: '酒店管理', child: '告警管理', inquire: '/hotel/alarm/inquire' };

test('device detail shows its status changes; alarm screen edits a type timeout', async ({ page, signIn, adminApi, request, shot }) => {
  test.setTimeout(120_000);
  const sn = uniq('SN-DTL-');
  const name = uniq('详情门锁');
  const created = (await adminApi.ok('/hotel/device/creation', { name, sn, type: 'lock', state: 1, remark: '' })) as { deviceKey: string };
  const beat = await request.post('/api/hotel/device/heartbeat', { headers: { 'x-device-key': created.deviceKey }, data: { sn } });
  expect(((await beat.json()) as { code: number }).code).toBe(200);

  await signIn(page);
  await openScreen(page, devices);
  await rowAction(page, sn, '详情');
  const drawer = page.locator('.ant-drawer').filter({ hasText: `设备详情：${name}` });
  // Its first heartbeat ever brought it online.
  await expect(drawer).toContainText('首次上线');
  await expect(drawer).toContainText('在线');
  await expect(drawer).toContainText('暂无告警');
  await shot(page, 'device-detail');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  expect(await openScreen(page, alarms)).toMatchObject({ size: 20, current: 1 });
  await page.getByRole('button', { name: /超\s*时\s*设\s*置/ }).click();
  const box = page.getByRole('dialog', { name: '设备类型超时设置' });
  const tv = box.getByLabel('电视超时分钟数');
  await tv.fill('7');
  // One 保存 for every type.
  await box.getByRole('button', { name: /保\s*存/ }).click();
  await expectToast(page, '保存成功');
  await shot(page, 'alarm-timeouts');
  // Leave the shared database as it was for the other specs.
  await adminApi.ok('/hotel/alarm/timeout/edit', { type: 'tv', minutes: null });
});
