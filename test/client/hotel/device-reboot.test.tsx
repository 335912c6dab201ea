/** 设备管理: the 重启 row action (a remote command over MQTT) and the latest command's status on the list. */
import { waitFor, within } from '@testing-library/react';
import { http } from 'msw';

import { api, fail, ok } from '../testing/handlers';
import { deviceHandlers, lock101 } from '../testing/handlers/device';
import { button, findRow, openScreen, rowAction, rowActionLabels, user } from '../testing/list-screen';
import { screen } from '../testing/render';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// Whole-app renders with antd dialogs take seconds on a shared, busy machine.
jest.setTimeout(120_000);

let log: RequestLog;

const command = (status: 'sent' | 'acked' | 'timed_out') => ({
  id: 7,
  deviceId: lock101.id,
  command: 'reboot',
  status,
  sentAt: 1_704_067_200_000,
  ackedAt: status === 'acked' ? 1_704_067_201_000 : null,
});
const meter = { ...lock101, id: 42, name: '102 电表', sn: 'METER-0102', lastCommand: command('acked') };
const panel = { ...lock101, id: 43, name: '103 面板', sn: 'PANEL-0103', lastCommand: command('timed_out') };

beforeEach(() => {
  log = createRequestLog();
  server.use(...deviceHandlers(log));
});

describe('hotel/device 重启', () => {
  it('sends 重启 after confirmation, toasts the msg and shows 已发送 once the list reloads', async () => {
    let rebooted = false;
    server.use(
      http.post(api('/hotel/device/inquire'), async ({ request }) => {
        const { size, current } = (await log.record(request)) as { size: number; current: number };
        return ok({ records: [{ ...lock101, lastCommand: rebooted ? command('sent') : null }], current, size, total: 1 });
      }),
      http.post(api('/hotel/device/command/reboot'), async ({ request }) => {
        await log.record(request);
        rebooted = true;
        return ok(command('sent'), '重启指令已发送，等待设备确认');
      }),
    );
    await openScreen('/hotel/device', 'LOCK-0101');
    expect(within(await findRow('LOCK-0101')).queryByText(/^重启 /)).toBeNull();

    await rowAction('LOCK-0101', '重启');
    expect(await screen.findByText(`向设备 ${lock101.name} 发送重启指令？设备确认后将重新启动。`)).toBeInTheDocument();
    expect(log.sent('/hotel/device/command/reboot')).toHaveLength(0);
    await user.click(await screen.findByRole('button', { name: button('确定') }));

    expect(await screen.findByText('重启指令已发送，等待设备确认')).toBeInTheDocument();
    expect(log.last('/hotel/device/command/reboot')).toEqual({ id: lock101.id });
    await waitFor(() => expect(log.sent('/hotel/device/inquire')).toHaveLength(2));
    expect(await within(await findRow('LOCK-0101')).findByText('重启 已发送')).toBeInTheDocument();
  });

  it('shows each device’s latest command: 已确认, 超时', async () => {
    server.use(
      http.post(api('/hotel/device/inquire'), async ({ request }) => {
        const { size, current } = (await log.record(request)) as { size: number; current: number };
        return ok({ records: [meter, panel], current, size, total: 2 });
      }),
    );
    await openScreen('/hotel/device', 'METER-0102');
    expect(within(await findRow('METER-0102')).getByText('重启 已确认')).toBeInTheDocument();
    expect(within(await findRow('PANEL-0103')).getByText('重启 超时')).toBeInTheDocument();
  });

  it('shows the server’s refusal when the broker is away', async () => {
    const away = 'MQTT 服务未连接，暂时无法下发远程指令，请稍后重试';
    server.use(http.post(api('/hotel/device/command/reboot'), () => fail(500, away)));
    await openScreen('/hotel/device', 'LOCK-0101');
    expect(await screen.findByText('远程指令', { selector: 'th, th *' })).toBeInTheDocument();
    await rowAction('LOCK-0101', '重启');
    await user.click(await screen.findByRole('button', { name: button('确定') }));
    expect(await screen.findByText(away)).toBeInTheDocument();
  });

  it('offers neither 重启 nor the 远程指令 column when the server has no MQTT configured', async () => {
    server.use(http.get(api('/sys/capabilities'), () => ok({ mqtt: false })));
    await openScreen('/hotel/device', 'LOCK-0101');
    const labels = await rowActionLabels('LOCK-0101');
    expect(labels).toContain('重置密钥');
    expect(labels).not.toContain('重启');
    expect(screen.queryByText('远程指令', { selector: 'th, th *' })).toBeNull();
  });
});
