import { waitFor, within } from '@testing-library/react';
import { http } from 'msw';

import { api, fail } from '../testing/handlers';
import { activeAlarm, alarmHandlers } from '../testing/handlers/alarm';
import { button, filterField, findRow, openScreen, pageButton, rowAction, search, user } from '../testing/list-screen';
import { screen } from '../testing/render';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// Whole-app renders with antd dialogs take seconds on a shared, busy machine.
jest.setTimeout(120_000);

let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...alarmHandlers(log));
});

describe('hotel/alarm', () => {
  it('lists alarms newest first with severity labels, status and who acknowledged or cleared them, and filters', async () => {
    await openScreen('/hotel/alarm', '101 门锁（LOCK-0101）');
    expect(log.sent('/hotel/alarm/inquire')[0]).toEqual({ size: 20, current: 1, params: {} });
    const active = await findRow('101 门锁（LOCK-0101）');
    expect(within(active).getByText('重要')).toBeInTheDocument();
    expect(within(active).getByText('活动')).toBeInTheDocument();
    expect(within(active).getByText('设备离线')).toBeInTheDocument();
    expect(within(active).getByRole('button', { name: button('确认') })).toBeInTheDocument();
    expect(within(active).getByRole('button', { name: button('清除') })).toBeInTheDocument();
    const cleared = await findRow('102 电表（METER-0102）');
    expect(within(cleared).getByText('已清除')).toBeInTheDocument();
    expect(within(cleared).getByText('系统 2024-01-01 08:03:20')).toBeInTheDocument();
    expect(within(cleared).queryByRole('button', { name: button('确认') })).toBeNull();
    expect(within(cleared).queryByRole('button', { name: button('清除') })).toBeNull();

    await user.type(filterField('设备'), 'LOCK');
    await user.click(filterField('状态'));
    await user.click(await screen.findByTitle('活动'));
    await search();
    await waitFor(() => expect(log.last('/hotel/alarm/inquire')).toEqual({ size: 20, current: 1, params: { device: 'LOCK', status: 'active' } }));
  });

  it('a notification link (/hotel/alarm?id=) shows that one alarm; 查看全部告警 goes back to the whole list', async () => {
    await openScreen(`/hotel/alarm?id=${activeAlarm.id}`, '101 门锁（LOCK-0101）');
    expect(log.sent('/hotel/alarm/inquire')[0]).toEqual({ size: 20, current: 1, params: { id: activeAlarm.id } });
    expect(screen.getByText(`正在查看告警 ${activeAlarm.id}（来自通知链接）`)).toBeInTheDocument();
    // The alarm can be handled right there.
    expect(within(await findRow('101 门锁（LOCK-0101）')).getByRole('button', { name: button('确认') })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: button('查看全部告警') }));
    await waitFor(() => expect(log.last('/hotel/alarm/inquire')).toEqual({ size: 20, current: 1, params: {} }));
    expect(screen.queryByText(`正在查看告警 ${activeAlarm.id}（来自通知链接）`)).toBeNull();
  });

  it('ignores an id in the link that is not an alarm id', async () => {
    await openScreen('/hotel/alarm?id=abc', '101 门锁（LOCK-0101）');
    expect(log.sent('/hotel/alarm/inquire')[0]).toEqual({ size: 20, current: 1, params: {} });
    expect(screen.queryByText(/来自通知链接/)).toBeNull();
  });

  it('acknowledges and clears an alarm, toasting the server msg', async () => {
    await openScreen('/hotel/alarm', '101 门锁（LOCK-0101）');
    await rowAction('101 门锁（LOCK-0101）', '确认');
    expect(await screen.findByText('已确认 1 条告警')).toBeInTheDocument();
    expect(log.last('/hotel/alarm/acknowledge')).toEqual({ ids: [activeAlarm.id] });
    await waitFor(() => expect(log.sent('/hotel/alarm/inquire').length).toBeGreaterThanOrEqual(2));

    await rowAction('101 门锁（LOCK-0101）', '清除');
    await user.click(await screen.findByRole('button', { name: button('确定') }));
    expect(await screen.findByText('已清除 1 条告警')).toBeInTheDocument();
    expect(log.last('/hotel/alarm/clear')).toEqual({ ids: [activeAlarm.id] });
  });

  it('shows the server msg of a refused clear', async () => {
    server.use(http.post(api('/hotel/alarm/clear'), () => fail(409, '告警已清除，不能重复清除')));
    await openScreen('/hotel/alarm', '101 门锁（LOCK-0101）');
    await rowAction('101 门锁（LOCK-0101）', '清除');
    await user.click(await screen.findByRole('button', { name: button('确定') }));
    expect(await screen.findByText('告警已清除，不能重复清除')).toBeInTheDocument();
  });

  it('edits a device type’s timeout in 超时设置, an empty one meaning the default', async () => {
    await openScreen('/hotel/alarm', '101 门锁（LOCK-0101）');
    await user.click(pageButton('超时设置'));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(/留空的类型使用默认值（5 分钟）/)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('门锁超时分钟数')).toHaveValue('2');
    const meter = within(dialog).getByLabelText('电表超时分钟数');
    await user.type(meter, '30');
    const row = meter.closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: button('保存') }));
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(log.last('/hotel/alarm/timeout/edit')).toEqual({ type: 'meter', minutes: 30 });
  });
});
