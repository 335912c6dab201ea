import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';

import SysScheduleScreen from '../../../src/client/features/sys/schedule';
import { api, fail } from '../testing/handlers';
import { relativeTo } from '../../../src/client/components/relative-time';
import { INVALID_CRON_MSG, scheduleHandlers, sweepSchedule, THREE_AM } from '../testing/handlers/schedule';
import { button, rowButton } from '../testing/list-screen';
import { findDialog, renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// antd dialogs render slowly in jsdom on a CPU shared with other suites.
jest.setTimeout(90_000);

const user = userEvent.setup({ delay: null });
const DAY = 86_400_000;
let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...scheduleHandlers(log));
});

async function openScheduleScreen() {
  renderScreen(SysScheduleScreen);
  const row = await screen.findByRole('row', { name: /设备离线巡检/ });
  // Task labels come from the task registry, which answers on its own.
  await within(row).findByText('设备离线检测');
  return row;
}

async function click(scope: HTMLElement, name: string) {
  await user.click(within(scope).getByRole('button', { name: button(name) }));
}

/** 新增 carries a plus icon, whose label is part of the button's name. */
async function openAdd(scope: HTMLElement) {
  await user.click(within(scope).getByRole('button', { name: /新\s*增/ }));
}

describe('sys/schedule', () => {
  it('lists schedules 20 per page with task label, state, next run and last outcome', async () => {
    const row = await openScheduleScreen();
    expect(log.sent('/sys/schedule/inquire')[0]).toEqual({ size: 20, current: 1, params: {} });
    expect(within(row).getByText('运行中')).toBeInTheDocument();
    // Next and last run read as recency; the exact Shanghai times are on the elements (and on hover).
    const times = Array.from(row.querySelectorAll('time')).map((time) => [time.getAttribute('datetime'), time.textContent]);
    expect(times).toEqual([
      [new Date(THREE_AM).toISOString(), relativeTo(THREE_AM, Date.now())],
      [new Date(THREE_AM - DAY).toISOString(), relativeTo(THREE_AM - DAY, Date.now())],
    ]);
    await user.hover(row.querySelectorAll('time')[1]);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('2025-12-31 03:00:00');
    expect(within(row).getByText('失败')).toBeInTheDocument();
  });

  it('creates a schedule with a cron preview and task parameters, toasting 保存成功', async () => {
    await openScheduleScreen();
    await openAdd(document.body);
    const dialog = await findDialog('新增定时任务');
    await user.type(within(dialog).getByLabelText('任务名称'), '夜间巡检');
    await user.type(within(dialog).getByLabelText('Cron 表达式'), '0 3 * * *');
    const preview = await within(dialog).findByLabelText('最近执行时间');
    expect(
      within(preview)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['2026-01-01 03:00:00', '2026-01-02 03:00:00', '2026-01-03 03:00:00', '2026-01-04 03:00:00', '2026-01-05 03:00:00']);
    expect(log.last('/sys/schedule/preview')).toEqual({ cron: '0 3 * * *' });

    await user.click(within(dialog).getByLabelText('任务类型'));
    await user.click(await screen.findByText('设备离线检测', { selector: '.ant-select-item-option-content' }));
    await click(dialog, '保存');
    // The task's required parameter is asked for before anything is sent.
    expect(await within(dialog).findByText('请输入心跳超时（分钟）')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('心跳超时（分钟）'), '15');
    await click(dialog, '保存');

    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(log.last('/sys/schedule/creation')).toEqual({
      name: '夜间巡检',
      cron: '0 3 * * *',
      task: 'device.offlineSweep',
      params: { minutes: 15 },
      state: 1,
      remark: '',
    });
    await waitFor(() => expect(log.sent('/sys/schedule/inquire').length).toBeGreaterThanOrEqual(2));
  });

  it('starts 保留天数 at its default and marks the task’s required parameters', async () => {
    await openScheduleScreen();
    await openAdd(document.body);
    const dialog = await findDialog('新增定时任务');
    await user.type(within(dialog).getByLabelText('任务名称'), '清理日志');
    await user.type(within(dialog).getByLabelText('Cron 表达式'), '0 4 * * *');
    await user.click(within(dialog).getByLabelText('任务类型'));
    await user.click(await screen.findByText('清理任务日志', { selector: '.ant-select-item-option-content' }));
    const days = await within(dialog).findByLabelText('保留天数');
    await waitFor(() => expect(days).toHaveValue('30'));
    expect(within(days.closest('.ant-flex') as HTMLElement).getByText('*')).toBeInTheDocument();
    await click(dialog, '保存');
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(log.last('/sys/schedule/creation')).toMatchObject({ task: 'schedule.pruneLogs', params: { days: 30 } });
  });

  it('keeps room for the five run times from the first keystroke, so the buttons below stay put as answers arrive', async () => {
    await openScheduleScreen();
    await openAdd(document.body);
    const dialog = await findDialog('新增定时任务');
    const room = () => within(dialog).getByTestId('cron-preview');
    const reserved = room().style.minHeight;
    // A heading and five lines of 22 px, and the list's 4 px margin.
    expect(reserved).toBe('136px');
    // Empty, the room says what will fill it.
    expect(within(room()).getByText('填写 Cron 表达式后，这里列出最近 5 次执行时间（北京时间）')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Cron 表达式'), '0 3');
    expect(await within(room()).findByText(INVALID_CRON_MSG)).toBeInTheDocument();
    expect(room().style.minHeight).toBe(reserved);
    await user.type(within(dialog).getByLabelText('Cron 表达式'), ' * * *');
    expect(await within(room()).findByLabelText('最近执行时间')).toBeInTheDocument();
    expect(room().style.minHeight).toBe(reserved);
  });

  it('shows the server msg of an invalid cron in the dialog only, and takes it away once the cron is fixed', async () => {
    await openScheduleScreen();
    await openAdd(document.body);
    const dialog = await findDialog('新增定时任务');
    await user.type(within(dialog).getByLabelText('Cron 表达式'), '0 3');
    expect(await within(dialog).findByText(INVALID_CRON_MSG)).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('最近执行时间')).toBeNull();
    // Shown where the mistake is, not toasted as well: a toast would outlive the fix.
    expect(screen.getAllByText(INVALID_CRON_MSG)).toHaveLength(1);

    await user.type(within(dialog).getByLabelText('Cron 表达式'), ' * * *');
    expect(await within(dialog).findByLabelText('最近执行时间')).toBeInTheDocument();
    expect(screen.queryByText(INVALID_CRON_MSG)).toBeNull();
  });

  it('pauses a schedule through edit, toasting 保存成功', async () => {
    await click(await openScheduleScreen(), '编辑');
    const dialog = await findDialog('编辑定时任务');
    expect(within(dialog).getByLabelText('心跳超时（分钟）')).toHaveValue('10');
    await user.click(within(dialog).getByRole('switch', { name: '状态' }));
    await click(dialog, '保存');

    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(log.last('/sys/schedule/edit')).toEqual({
      id: sweepSchedule.id,
      version: sweepSchedule.version,
      name: sweepSchedule.name,
      cron: sweepSchedule.cron,
      task: 'device.offlineSweep',
      params: { minutes: 10 },
      state: 0,
      remark: '',
    });
  });

  it('shows the server msg when a save is refused', async () => {
    server.use(http.post(api('/sys/schedule/edit'), () => fail(409, '数据已被他人修改，请刷新后重试')));
    await click(await openScheduleScreen(), '编辑');
    const dialog = await findDialog('编辑定时任务');
    await click(dialog, '保存');
    expect(await screen.findByText('数据已被他人修改，请刷新后重试')).toBeInTheDocument();
    expect(screen.queryByText('保存成功')).toBeNull();
  });

  it('shows the run log and reloads it after 立即执行', async () => {
    const row = await openScheduleScreen();
    await user.click(await rowButton(row, '运行日志'));
    const title = await screen.findByText(`运行日志：${sweepSchedule.name}`);
    const drawer = title.closest('.ant-drawer') as HTMLElement;
    const logRow = await within(drawer).findByRole('row', { name: /3 台设备标记为离线/ });
    expect(within(logRow).getByText('手动执行')).toBeInTheDocument();
    expect(within(logRow).getByText('成功')).toBeInTheDocument();
    expect(within(logRow).getByText('2026-01-01 03:00:01')).toBeInTheDocument();
    expect(log.sent('/sys/schedule/log')[0]).toEqual({ size: 20, current: 1, params: { scheduleId: sweepSchedule.id } });

    await user.click(await rowButton(row, '立即执行'));
    expect(await screen.findByText('已执行：3 台设备标记为离线')).toBeInTheDocument();
    expect(log.last('/sys/schedule/run')).toEqual({ id: sweepSchedule.id });
    await waitFor(() => expect(log.sent('/sys/schedule/log')).toHaveLength(2));
  });

  it('fetches the run log afresh each time the drawer opens, since jobs keep running meanwhile', async () => {
    const row = await openScheduleScreen();
    await user.click(await rowButton(row, '运行日志'));
    const title = await screen.findByText(`运行日志：${sweepSchedule.name}`);
    const drawer = title.closest('.ant-drawer') as HTMLElement;
    await within(drawer).findByRole('row', { name: /3 台设备标记为离线/ });
    expect(log.sent('/sys/schedule/log')).toHaveLength(1);
    await user.click(within(drawer).getByRole('button', { name: /close|关闭/i }));
    await waitFor(() => expect(screen.queryByText(`运行日志：${sweepSchedule.name}`)).not.toBeInTheDocument());
    await user.click(await rowButton(row, '运行日志'));
    await waitFor(() => expect(log.sent('/sys/schedule/log')).toHaveLength(2));
  });
});
