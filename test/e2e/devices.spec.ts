/**
 * 设备管理 (hotel/device): add (the key is shown once), edit, heartbeats turn the device online,
 * the offline sweep turns it offline again.
 */
import { uniq } from './support/api';
import { expect, test } from './support/fixtures';
import { dialog, expectToast, fill, openScreen, pickLocation, row, rowAction, saveDialog, choose } from './support/list-screen';

const screen = { parent: '酒店管理', child: '设备管理', inquire: '/hotel/device/inquire' };
/** The sweep's smallest threshold is one minute (src/contract/sys/schedule.ts). */
const SWEEP_MINUTES = 1;

test('devices: add, edit, heartbeat online, sweep offline', async ({ page, signIn, adminApi, request, shot }) => {
  test.setTimeout(150_000);
  // Two rooms of their own (numbers no other run or spec has), for the 位置 picker to find by name.
  const building = await adminApi.ok('/hotel/location/creation', { parentId: 0, kind: 'building', name: uniq('设备楼'), sort: 0 });
  const floor = await adminApi.ok('/hotel/location/creation', { parentId: building.id, kind: 'floor', name: '12F', sort: 12 });
  const first = String((Date.now() % 90_000_000) + 10_000_000);
  const second = String(Number(first) + 1);
  await adminApi.ok('/hotel/location/rooms/creation', { floorId: floor.id, from: first, to: second });
  await signIn(page);
  expect(await openScreen(page, screen)).toMatchObject({ size: 20, current: 1 });

  const name = uniq('门锁');
  const sn = uniq('SN-LOCK-');
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const add = dialog(page, '新增设备');
  await fill(add, { 设备名称: name, 序列号: sn });
  await expect(add.locator('label[title="房间号"]')).toHaveCount(0);
  await choose(page, add, '设备类型', '智能门锁');
  await pickLocation(page, add, first);
  const created = await saveDialog(page, add, '/hotel/device/creation', screen.inquire);
  await expectToast(page, '保存成功');
  const line = row(page, sn);
  await expect(line).toContainText('智能门锁');
  await expect(line).toContainText('离线');
  await expect(line).toContainText(`${building.name} / 12F / ${first}`);

  // The key is shown once, in its own dialog; a device reports with it, not with a staff token.
  const { deviceKey } = created.envelope.data as { deviceKey: string };
  const keyDialog = dialog(page, `设备密钥：${name}`);
  await expect(keyDialog).toContainText(deviceKey);
  await shot(page, 'device-key');
  await keyDialog.getByRole('button', { name: /我已保存/ }).click();
  await expect(keyDialog).toBeHidden();

  const beat = await request.post('/api/hotel/device/heartbeat', { headers: { 'x-device-key': deviceKey }, data: { sn } });
  expect((await beat.json()).code).toBe(200);
  const wrongKey = await request.post('/api/hotel/device/heartbeat', { headers: { 'x-device-key': 'not-the-key' }, data: { sn } });
  expect((await wrongKey.json()).code).not.toBe(200);
  const beatAt = Date.now();

  await page.reload();
  await expect(line).toContainText('在线');

  await rowAction(page, sn, '编辑');
  const edit = dialog(page, '编辑设备');
  await pickLocation(page, edit, second);
  const edited = await saveDialog(page, edit, '/hotel/device/edit', screen.inquire);
  expect(edited.body).not.toHaveProperty('roomNo');
  await expectToast(page, '保存成功');
  await expect(line).toContainText(`${building.name} / 12F / ${second}`);
  await shot(page, 'devices');

  // A paused sweep schedule, run once by hand after the threshold has passed.
  const sweep = await adminApi.ok('/sys/schedule/creation', {
    name: uniq('离线检测'),
    cron: '0 0 1 1 *',
    task: 'device.offlineSweep',
    params: { minutes: SWEEP_MINUTES },
    state: 0,
    remark: 'e2e',
  });
  await page.waitForTimeout(Math.max(0, beatAt + SWEEP_MINUTES * 60_000 + 1_000 - Date.now()));
  const run = await adminApi.ok('/sys/schedule/run', { id: sweep.id });
  expect(run.outcome).toBe('success');
  await page.reload();
  await expect(line).toContainText('离线');
});
