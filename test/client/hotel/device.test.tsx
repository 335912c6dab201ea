import { waitFor, within } from '@testing-library/react';
import { http } from 'msw';

import { api, fail, ok } from '../testing/handlers';
import { activeAlarm } from '../testing/handlers/alarm';
import { deviceHandlers, deviceHistoryHandlers, ISSUED_KEY, lock101 } from '../testing/handlers/device';
import { floor8, room0803 } from '../testing/handlers/location';
import { adminWithoutUnitPicker } from '../testing/handlers/pickers';
import { button, fill, filterField, findRow, openAdd, openDialog, openScreen, rowAction, rowActionLabels, saveDialog, search, user } from '../testing/list-screen';
import { screen } from '../testing/render';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// Whole-app renders with antd dialogs take seconds on a shared, busy machine.
jest.setTimeout(120_000);

let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...deviceHandlers(log));
  // Used after, so it answers the authority before theirs: no 可选单位 (the hotel picker is hotel-org.test's).
  server.use(adminWithoutUnitPicker());
});

const openDevices = () => openScreen('/hotel/device', 'LOCK-0101');

async function chooseOption(dialog: HTMLElement, label: string, option: string) {
  await user.click(within(dialog).getByLabelText(label));
  await user.click(await screen.findByTitle(option));
}

describe('hotel/device', () => {
  it('lists 20 per page with dictionary labels and the last-seen time as recency, exact in Asia/Shanghai on hover', async () => {
    await openDevices();
    expect(log.sent('/hotel/device/inquire')[0]).toEqual({ size: 20, current: 1, params: {} });
    const row = await findRow('LOCK-0101');
    expect(within(row).getByText('门锁')).toBeInTheDocument();
    expect(within(row).getByText('在线')).toBeInTheDocument();
    const lastSeen = within(row).getByText(/^\d+ 年前$/);
    await user.hover(lastSeen);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('2024-01-01 08:00:00');

    // The room is the location alone: its path in the list, no free-text 房间号 to disagree with it.
    expect(within(row).getByText('主楼 / 8F / 0803')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: '位置' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: /房间号/ })).toBeNull();
    expect(screen.queryByLabelText('房间号')).toBeNull();
  });

  it('creates a device, toasts 保存成功 and shows its key once', async () => {
    await openDevices();
    const dialog = await openAdd();
    await fill(dialog, { 设备名称: '102 电表', 序列号: 'METER-0102' });
    expect(within(dialog).queryByLabelText('房间号')).toBeNull();
    await chooseOption(dialog, '设备类型', '电表');
    await saveDialog(dialog);

    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(log.last('/hotel/device/creation')).toEqual({ name: '102 电表', sn: 'METER-0102', type: 'meter', state: 1, remark: '' });
    const keyDialog = (await screen.findByText(ISSUED_KEY)).closest('[role="dialog"]') as HTMLElement;
    expect(within(keyDialog).getByText(/设备密钥/)).toBeInTheDocument();
    expect(within(keyDialog).getByText(/只显示这一次/)).toBeInTheDocument();
    await waitFor(() => expect(log.sent('/hotel/device/inquire')).toHaveLength(2));

    await user.click(within(keyDialog).getByRole('button', { name: '我已保存' }));
    await waitFor(() => expect(screen.queryByText(ISSUED_KEY)).toBeNull());
    const again = await openAdd();
    expect(within(again).getByLabelText('设备名称')).toHaveValue('');
  });

  it('filters the list by a location subtree picked in the tree', async () => {
    await openDevices();
    await user.click(filterField('位置'));
    await user.type(filterField('位置'), '8F');
    await user.click(await screen.findByTitle('8F'));
    await search();
    await waitFor(() => expect(log.last('/hotel/device/inquire')).toEqual({ size: 20, current: 1, params: { locationId: floor8.id } }));
  });

  it('puts a new device in a room picked in the tree', async () => {
    await openDevices();
    const dialog = await openAdd();
    await fill(dialog, { 设备名称: '0803 门锁', 序列号: 'LOCK-0803' });
    await chooseOption(dialog, '设备类型', '门锁');
    await user.type(within(dialog).getByLabelText('位置'), '0803');
    await user.click(await screen.findByTitle('0803'));
    await saveDialog(dialog);

    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(log.last('/hotel/device/creation')).toMatchObject({ sn: 'LOCK-0803', locationId: room0803.id });
  });

  it('edits with the id and version, toasts 保存成功 and reloads', async () => {
    await openDevices();
    const dialog = await openDialog(() => rowAction('LOCK-0101', '编辑'));
    await fill(dialog, { 设备名称: '201 门锁' });
    await saveDialog(dialog);

    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(log.last('/hotel/device/edit')).toEqual({
      id: lock101.id,
      version: lock101.version,
      name: '201 门锁',
      sn: lock101.sn,
      type: 'lock',
      locationId: room0803.id,
      state: 1,
      remark: '',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(log.sent('/hotel/device/inquire')).toHaveLength(2));
  });

  it('shows the server msg of a stale edit', async () => {
    server.use(http.post(api('/hotel/device/edit'), () => fail(409, '该设备已被他人修改，请刷新后重试')));
    await openDevices();
    const dialog = await openDialog(() => rowAction('LOCK-0101', '编辑'));
    await saveDialog(dialog);
    expect(await screen.findByText('该设备已被他人修改，请刷新后重试')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeVisible();
  });

  it('resets a key after confirmation and shows the new one', async () => {
    await openDevices();
    await rowAction('LOCK-0101', '重置密钥');
    await user.click(await screen.findByRole('button', { name: button('确定') }));

    expect(await screen.findByText('dk_new_77aa')).toBeInTheDocument();
    expect(log.last('/hotel/device/key/reset')).toEqual({ id: lock101.id });
  });

  it('deletes a device after a confirmation that says what is kept, and reloads the list', async () => {
    await openDevices();
    await rowAction('LOCK-0101', '删除');
    expect(await screen.findByText(/其密钥立即失效；状态记录、告警和操作日志保留可查/)).toBeInTheDocument();
    expect(log.sent('/hotel/device/removal')).toHaveLength(0);
    await user.click(await screen.findByRole('button', { name: button('确定') }));

    expect(await screen.findByText('设备已删除，其状态记录、告警和操作日志仍可查阅')).toBeInTheDocument();
    expect(log.last('/hotel/device/removal')).toEqual({ id: lock101.id });
    await waitFor(() => expect(log.sent('/hotel/device/inquire').length).toBeGreaterThanOrEqual(2));
  });

  it('shows a device’s status records from the operation log in a drawer', async () => {
    server.use(...deviceHistoryHandlers(log));
    await openDevices();
    await rowAction('LOCK-0101', '状态记录');
    const title = await screen.findByText('状态记录：101 门锁');
    const drawer = title.closest('.ant-drawer') as HTMLElement;
    const record = await within(drawer).findByRole('row', { name: /设备离线/ });
    expect(log.sent('/monitor/operation/inquire')[0]).toEqual({ size: 20, current: 1, params: { targetType: 'device', targetId: String(lock101.id) } });
    expect(within(record).getByText('2026-03-01 09:28:00')).toBeInTheDocument();
    expect(within(record).getByText('系统')).toBeInTheDocument();
    expect(within(record).getByText('设备心跳超时，状态由在线变为离线')).toBeInTheDocument();
    // The outcome label is the operation log's dictionary data.
    expect(await within(record).findByText('成功')).toBeInTheDocument();
  });

  it('offers no status records to those who may not read the operation log', async () => {
    await openDevices();
    const labels = await rowActionLabels('LOCK-0101');
    expect(labels).toContain('重置密钥');
    expect(labels).not.toContain('状态记录');
  });

  it('shows online since, last seen, the status changes and recent alarms (each type by its label) in 详情', async () => {
    server.use(
      http.post(api('/hotel/device/status'), async ({ request }) => {
        const { size, current } = (await log.record(request)) as { size: number; current: number };
        return ok({
          online: 1,
          onlineSince: lock101.onlineSince,
          offlineSince: 1_704_050_000_000,
          lastSeenAt: lock101.lastSeenAt,
          transitions: {
            records: [
              { id: 2, online: 1, at: 1_704_060_000_000, cause: 'heartbeat' },
              { id: 1, online: 0, at: 1_704_050_000_000, cause: 'sweep' },
            ],
            current,
            size,
            total: 2,
          },
          // The device a floor alarm is filed under lists that alarm among its own.
          alarms: [
            { ...activeAlarm, id: 90, type: 'floor_offline', severity: 'critical', count: 1, locationId: 8, locationPath: '主楼 / 8F' },
            { ...activeAlarm, clearedAt: 1_704_060_000_000, clearedBy: '系统' },
          ],
        });
      }),
    );
    await openDevices();
    await rowAction('LOCK-0101', '详情');
    const title = await screen.findByText('设备详情：101 门锁');
    const drawer = title.closest('.ant-drawer') as HTMLElement;
    expect(await within(drawer).findByText('心跳超时')).toBeInTheDocument();
    expect(log.sent('/hotel/device/status')[0]).toEqual({ id: lock101.id, size: 10, current: 1 });
    expect(within(drawer).getByText('恢复心跳')).toBeInTheDocument();
    // 2024-01-01 06:00:00 in Asia/Shanghai: the exact time of the change.
    expect(within(drawer).getByText('2024-01-01 06:00:00')).toBeInTheDocument();
    expect(within(drawer).getByText(/设备离线（重要）· 2 次/)).toBeInTheDocument();
    expect(within(drawer).getByText(/楼层断连（严重）· 1 次/)).toBeInTheDocument();
    expect(within(drawer).getByText('已清除')).toBeInTheDocument();
    // Online since / last seen read as recency, the exact time on hover.
    const lastSeen = within(drawer).getAllByText(/^\d+ 年前$/);
    expect(lastSeen.length).toBeGreaterThanOrEqual(3);
    await user.hover(lastSeen[2]);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('2024-01-01 08:00:00');
  });

  it('says in 详情 what the device is and labels its first-ever heartbeat 首次上线', async () => {
    const placed = { ...lock101, locationPath: '主楼/8F/0808', remark: '靠近消防通道' };
    const transition = (id: number, online: number, cause: string) => ({ id, online, at: 1_704_000_000_000 + id * 60_000, cause });
    // The second page is held until the test has looked at the first one still on screen.
    let releaseSecondPage = () => undefined as void;
    const secondPageReleased = new Promise<void>((resolve) => (releaseSecondPage = resolve));
    server.use(
      http.post(api('/hotel/device/inquire'), () => ok({ records: [placed], current: 1, size: 20, total: 1 })),
      http.post(api('/hotel/device/status'), async ({ request }) => {
        const { size, current } = (await log.record(request)) as { size: number; current: number };
        if (current === 2) await secondPageReleased;
        // Thirteen changes, newest first: the second page ends with the oldest, the first heartbeat.
        const all = Array.from({ length: 13 }, (_, index) => 13 - index).map((id) => transition(id, id % 2, id % 2 ? 'heartbeat' : 'sweep'));
        return ok({
          online: 1,
          onlineSince: lock101.onlineSince,
          offlineSince: null,
          lastSeenAt: lock101.lastSeenAt,
          transitions: { records: all.slice((current - 1) * size, current * size), current, size, total: all.length },
          alarms: [],
        });
      }),
    );
    await openDevices();
    await rowAction('LOCK-0101', '详情');
    const drawer = (await screen.findByText('设备详情：101 门锁')).closest('.ant-drawer') as HTMLElement;
    const item = (label: string) => within(drawer).getByText(label, { selector: 'th, th *' }).closest('tr') as HTMLElement;
    await within(drawer).findAllByText('恢复心跳');
    expect(within(item('序列号')).getByText('LOCK-0101')).toBeInTheDocument();
    expect(within(item('设备类型')).getByText('门锁')).toBeInTheDocument();
    expect(within(item('位置')).getByText('主楼/8F/0808')).toBeInTheDocument();
    expect(within(item('备注')).getByText('靠近消防通道')).toBeInTheDocument();
    expect(within(drawer).queryByText('首次上线')).toBeNull();

    await user.click(within(drawer).getByTitle('2'));
    // While page 2 loads, page 1's rows stay: none of them is the first heartbeat.
    await waitFor(() => expect(log.sent('/hotel/device/status')).toContainEqual({ id: lock101.id, size: 10, current: 2 }));
    expect(within(drawer).getAllByText('恢复心跳')).toHaveLength(5);
    expect(within(drawer).queryByText('首次上线')).toBeNull();
    releaseSecondPage();
    expect(await within(drawer).findByText('首次上线')).toBeInTheDocument();
    // Only the oldest change: the later heartbeat on this page is a recovery.
    expect(within(drawer).getAllByText('恢复心跳')).toHaveLength(1);
  });
});
