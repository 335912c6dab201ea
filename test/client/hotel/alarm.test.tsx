import { waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { api, fail } from '../testing/handlers';
import { activeAlarm, alarmHandlers } from '../testing/handlers/alarm';
import { button, columnWidth, filterField, findRow, openScreen, pageButton, rowAction, search, user } from '../testing/list-screen';
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

/** The screen's own list reads: the header's alarm badge reads the same endpoint, newest first. */
const screenReads = () => log.sent('/hotel/alarm/inquire').filter((body) => (body as { sort?: unknown }).sort === undefined);

describe('hotel/alarm', () => {
  it('lists alarms newest first with severity labels, status and who acknowledged or cleared them, and filters', async () => {
    await openScreen('/hotel/alarm', '101 门锁（LOCK-0101）');
    expect(screenReads()[0]).toEqual({ size: 20, current: 1, params: {} });
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
    await waitFor(() => expect(screenReads().at(-1)).toEqual({ size: 20, current: 1, params: { device: 'LOCK', status: 'active' } }));
  });

  it('a notification link (/hotel/alarm?id=) shows that one alarm; 查看全部告警 goes back to the whole list', async () => {
    await openScreen(`/hotel/alarm?id=${activeAlarm.id}`, '101 门锁（LOCK-0101）');
    expect(screenReads()[0]).toEqual({ size: 20, current: 1, params: { id: activeAlarm.id } });
    expect(screen.getByText(`正在查看告警 ${activeAlarm.id}（来自通知链接）`)).toBeInTheDocument();
    // The alarm can be handled right there.
    expect(within(await findRow('101 门锁（LOCK-0101）')).getByRole('button', { name: button('确认') })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: button('查看全部告警') }));
    await waitFor(() => expect(screenReads().at(-1)).toEqual({ size: 20, current: 1, params: {} }));
    expect(screen.queryByText(`正在查看告警 ${activeAlarm.id}（来自通知链接）`)).toBeNull();
  });

  it('ignores an id in the link that is not an alarm id', async () => {
    await openScreen('/hotel/alarm?id=abc', '101 门锁（LOCK-0101）');
    expect(screenReads()[0]).toEqual({ size: 20, current: 1, params: {} });
    expect(screen.queryByText(/来自通知链接/)).toBeNull();
  });

  it('acknowledges an alarm after asking, with an optional note, and clears one, toasting the server msg', async () => {
    await openScreen('/hotel/alarm', '101 门锁（LOCK-0101）');
    // Cleared before anyone acknowledged it: nothing to acknowledge.
    expect(within(await findRow('103 空调（AC-0103）')).queryByRole('button', { name: button('确认') })).toBeNull();

    await rowAction('101 门锁（LOCK-0101）', '确认');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('确定确认告警“101 门锁（LOCK-0101）”？')).toBeInTheDocument();
    expect(log.sent('/hotel/alarm/acknowledge')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('确认备注（选填）'), ' 已派人检查 ');
    await user.click(within(dialog).getByRole('button', { name: button('确定') }));
    expect(await screen.findByText('已确认 1 条告警')).toBeInTheDocument();
    expect(log.last('/hotel/alarm/acknowledge')).toEqual({ ids: [activeAlarm.id], note: '已派人检查' });
    await waitFor(() => expect(screenReads().length).toBeGreaterThanOrEqual(2));

    await rowAction('101 门锁（LOCK-0101）', '清除');
    await user.click(await screen.findByRole('button', { name: button('确定') }));
    expect(await screen.findByText('已清除 1 条告警')).toBeInTheDocument();
    expect(log.last('/hotel/alarm/clear')).toEqual({ ids: [activeAlarm.id] });
  });

  it('acknowledges the ticked alarms in one batch with a note; cleared alarms cannot be ticked', async () => {
    await openScreen('/hotel/alarm', '101 门锁（LOCK-0101）');
    const batchButton = screen.getByRole('button', { name: button('批量确认') });
    expect(batchButton).toBeDisabled();
    expect(within(await findRow('103 空调（AC-0103）')).getByRole('checkbox')).toBeDisabled();
    expect(within(await findRow('102 电表（METER-0102）')).getByRole('checkbox')).toBeDisabled();
    await user.click(within(await findRow('101 门锁（LOCK-0101）')).getByRole('checkbox'));
    expect(screen.getByText('已选 1 项')).toBeInTheDocument();

    await user.click(batchButton);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('确定确认所选的 1 条告警？')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('确认备注（选填）'), '夜班统一处理');
    await user.click(within(dialog).getByRole('button', { name: button('确定') }));
    expect(await screen.findByText('已确认 1 条告警')).toBeInTheDocument();
    expect(log.last('/hotel/alarm/batch/acknowledge')).toEqual({ ids: [activeAlarm.id], note: '夜班统一处理' });
    await waitFor(() => expect(screen.queryByText('已选 1 项')).toBeNull());
  });

  it('keeps the batch dialog open on a refusal and lists every refused row with its reason', async () => {
    server.use(
      http.post(api('/hotel/alarm/batch/acknowledge'), () =>
        HttpResponse.json({
          code: 409,
          msg: `1 项不能执行，未做任何更改（编号 ${activeAlarm.id}：告警已确认，不能重复确认）`,
          data: null,
          errors: [{ field: 'ids.0', msg: `编号 ${activeAlarm.id}：告警已确认，不能重复确认` }],
        }),
      ),
    );
    await openScreen('/hotel/alarm', '101 门锁（LOCK-0101）');
    await user.click(within(await findRow('101 门锁（LOCK-0101）')).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: button('批量确认') }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: button('确定') }));
    expect(await within(dialog).findByText(`编号 ${activeAlarm.id}：告警已确认，不能重复确认`)).toBeInTheDocument();
    expect(within(dialog).getByText('以下各项不能执行，未做任何更改')).toBeInTheDocument();
    expect(dialog).toBeVisible();
    // Nothing changed, so the ticked row stays ticked for another try.
    expect(screen.getByText('已选 1 项')).toBeInTheDocument();
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
    // The stored minutes fill the inputs once the form takes them (an effect after the first paint).
    await waitFor(() => expect(within(dialog).getByLabelText('门锁超时分钟数')).toHaveValue('2'));
    const meter = within(dialog).getByLabelText('电表超时分钟数');
    await user.type(meter, '30');
    await user.clear(within(dialog).getByLabelText('门锁超时分钟数'));
    // One 保存 for all types: each changed type is sent, the unchanged ones are not.
    expect(within(dialog).getAllByRole('button', { name: button('保存') })).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(log.sent('/hotel/alarm/timeout/edit')).toEqual([
      { type: 'lock', minutes: null },
      { type: 'meter', minutes: 30 },
    ]);
  });

  it('names a timeout out of range under its input and sends nothing', async () => {
    await openScreen('/hotel/alarm', '101 门锁（LOCK-0101）');
    await user.click(pageButton('超时设置'));
    const dialog = await screen.findByRole('dialog');
    const meter = await within(dialog).findByLabelText('电表超时分钟数');
    await user.type(meter, '0');
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));
    const item = meter.closest('.ant-form-item') as HTMLElement;
    expect(await within(item).findByText('请输入 1–10080 之间的整数分钟，留空使用默认值')).toBeInTheDocument();
    expect(log.sent('/hotel/alarm/timeout/edit')).toHaveLength(0);
  });
});

describe('hotel/alarm layout', () => {
  it('gives the short columns their widths, cuts the text columns to one line and scrolls sideways on a narrow screen', async () => {
    await openScreen('/hotel/alarm', '101 门锁（LOCK-0101）');
    for (const title of ['设备', '类型', '级别', '状态', '开始时间', '最近发生', '次数']) expect(columnWidth(title)).toMatch(/^\d+px$/);
    const active = await findRow('101 门锁（LOCK-0101）');
    expect(within(active).getByText('101 门锁（LOCK-0101）').closest('td')).toHaveClass('ant-table-cell-ellipsis');
    expect(within(active).getByText('设备心跳超时，已离线').closest('td')).toHaveClass('ant-table-cell-ellipsis');
    expect((document.querySelector('.ant-table-content table') as HTMLElement).style.width).toBe('1300px');
    // Scrolled sideways, the row's 确认 and 清除 stay in view.
    expect(
      within(active)
        .getByRole('button', { name: button('确认') })
        .closest('td'),
    ).toHaveClass('ant-table-cell-fix-end');
  });
});
