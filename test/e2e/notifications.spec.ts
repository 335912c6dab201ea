/**
 * Alarms reach people (issue 28): a webhook channel and a rule made on their screens, an alarm
 * raised the way devices raise them (a heartbeat, then the offline sweep), the message received by
 * a webhook receiver this spec runs and listed as sent on 通知记录; its link opens 告警管理 on that alarm.
 * The administrator makes the channel; the rule is made and the message followed by a duty role
 * holding 通知规则, 通知记录 and 告警管理 only: its pickers are its screens' own (可选渠道), so it
 * picks the channel without 通知渠道.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { uniq } from './support/api';
import { expect, test } from './support/fixtures';
import { choose, dialog, fill, openScreen, row, saveDialog } from './support/list-screen';

const channels = { parent: '系统监控', child: '通知渠道', inquire: '/monitor/channel/inquire' };
const rules = { parent: '系统监控', child: '通知规则', inquire: '/monitor/rule/inquire' };
const messages = { parent: '系统监控', child: '通知记录', inquire: '/monitor/message/inquire' };
/** The sweep's smallest threshold is one minute (src/contract/sys/schedule.ts). */
const SWEEP_MINUTES = 1;

/** A webhook receiver on 127.0.0.1 that keeps what it got. */
async function startReceiver() {
  const received: Array<{ title: string; kind: string; link: string; alarmId: number }> = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push(JSON.parse(body) as { title: string; kind: string; link: string; alarmId: number });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, close: () => new Promise((resolve) => server.close(resolve)) };
}

test('a webhook channel and a rule; an offline alarm reaches the receiver and shows in 通知记录', async ({ page, signIn, adminApi, request, shot }) => {
  test.setTimeout(180_000);
  const receiver = await startReceiver();
  let ruleId: number | undefined;
  try {
    await signIn(page);
    const channelName = uniq('值班 Webhook');
    await openScreen(page, channels);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const addChannel = dialog(page, '新增通知渠道');
    await choose(page, addChannel, '渠道类型', 'Webhook');
    await fill(addChannel, { 渠道名称: channelName, 'Webhook 地址': receiver.url });
    await saveDialog(page, addChannel, '/monitor/channel/creation', channels.inquire);
    await expect(row(page, channelName)).toContainText('Webhook');
    await shot(page, 'notify-channels');

    const duty = await adminApi.createRoleWithUser(await adminApi.screenGrants(['monitor/rule', 'monitor/message', 'hotel/alarm']), { dataScope: 'all' });
    await signIn(page, duty.userName, duty.password);
    const ruleName = uniq('离线通知');
    await openScreen(page, rules);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const addRule = dialog(page, '新增通知规则');
    await fill(addRule, { 规则名称: ruleName });
    await choose(page, addRule, '通知渠道', channelName);
    await page.keyboard.press('Escape');
    const saved = await saveDialog(page, addRule, '/monitor/rule/creation', rules.inquire);
    ruleId = (saved.envelope.data as { id: number }).id;
    await expect(row(page, ruleName)).toContainText(channelName);

    // A device that reported once, then fell silent: the sweep raises its offline alarm.
    const sn = uniq('SN-NTF-');
    const deviceName = uniq('通知门锁');
    const created = (await adminApi.ok('/hotel/device/creation', { name: deviceName, sn, type: 'lock', state: 1, remark: '' })) as { deviceKey: string };
    const beat = await request.post('/api/hotel/device/heartbeat', { headers: { 'x-device-key': created.deviceKey }, data: { sn } });
    expect(((await beat.json()) as { code: number }).code).toBe(200);
    const beatAt = Date.now();
    const sweep = (await adminApi.ok('/sys/schedule/creation', {
      name: uniq('通知离线检测'),
      cron: '0 0 1 1 *',
      task: 'device.offlineSweep',
      params: { minutes: SWEEP_MINUTES },
      state: 0,
      remark: 'e2e',
    })) as { id: number };
    await page.waitForTimeout(Math.max(0, beatAt + SWEEP_MINUTES * 60_000 + 1_000 - Date.now()));
    await adminApi.ok('/sys/schedule/run', { id: sweep.id });

    await expect.poll(() => receiver.received.filter((got) => got.title.includes(deviceName)).map((got) => got.kind), { timeout: 20_000 }).toEqual(['raise']);
    await openScreen(page, messages);
    const line = row(page, deviceName);
    await expect(line).toContainText(channelName);
    await expect(line).toContainText('已发送');
    await shot(page, 'notify-messages');

    // The message's link opens 告警管理 showing that alarm.
    const raise = receiver.received.find((got) => got.title.includes(deviceName))!;
    if (raise.link) expect(raise.link.endsWith(`/hotel/alarm?id=${raise.alarmId}`)).toBe(true);
    await page.goto(`/hotel/alarm?id=${raise.alarmId}`);
    await expect(page.getByText(`正在查看告警 ${raise.alarmId}（来自通知链接）`)).toBeVisible();
    await expect(row(page, deviceName)).toBeVisible();
  } finally {
    // Other specs raise alarms too: the rule goes, so they send nothing to a closed receiver.
    if (ruleId !== undefined) await adminApi.ok('/monitor/rule/removal', { id: ruleId });
    await receiver.close();
  }
});
