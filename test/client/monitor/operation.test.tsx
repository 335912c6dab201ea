import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';

import MonitorOperationScreen from '../../../src/client/features/monitor/operation';
import { api, fail, ok } from '../testing/handlers';
import { EXPORT_NAME, monitorHandlers, monitorMenu, NINE_THIRTY, userEdit } from '../testing/handlers/monitor';
import { button } from '../testing/list-screen';
import { renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// antd tables, drawers and pickers render slowly in jsdom on a CPU shared with other suites.
jest.setTimeout(120_000);

const user = userEvent.setup({ delay: null });
let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...monitorHandlers(log));
});

afterEach(() => jest.restoreAllMocks());

async function openOperations() {
  renderScreen(MonitorOperationScreen, monitorMenu);
  const row = await screen.findByRole('row', { name: /编辑用户/ });
  // Labels come from the menu dictionary, which answers on its own.
  await within(row).findByText('成功');
  return row;
}

const pageButton = (label: string) => screen.getByRole('button', { name: button(label) });

async function choose(label: string, option: string) {
  await user.click(screen.getByLabelText(label));
  await user.click(await screen.findByText(option, { selector: '.ant-select-item-option-content' }));
}

describe('monitor/operation', () => {
  it('lists records read-only: time in Asia/Shanghai, operator, target, outcome label, IP and duration', async () => {
    const row = await openOperations();
    expect(log.sent('/monitor/operation/inquire')[0]).toEqual({ size: 20, current: 1, params: {} });
    expect(log.sent('/sys/dict/resource/inquire')).toContainEqual({ menuId: 31 });
    expect(within(row).getByText('2026-03-01 09:30:00')).toBeInTheDocument();
    expect(within(row).getByText('admin')).toBeInTheDocument();
    expect(within(row).getByText('用户管理')).toBeInTheDocument();
    expect(within(row).getByText('zhangsan')).toBeInTheDocument();
    expect(within(row).getByText('#12')).toBeInTheDocument();
    expect(within(row).getByText('10.0.0.8')).toBeInTheDocument();
    expect(within(row).getByText('23 ms')).toBeInTheDocument();
    // Times and durations stay on one line (the block's `nowrap` columns); messages wrap.
    expect(within(row).getByText('2026-03-01 09:30:00').closest('td')).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(within(row).getByText('23 ms').closest('td')).toHaveStyle({ whiteSpace: 'nowrap' });

    const refused = screen.getByRole('row', { name: /角色授权/ });
    expect(within(refused).getByText('拒绝')).toBeInTheDocument();
    expect(within(refused).getByText('没有权限执行此操作')).toBeInTheDocument();
    // A record written by the system says so, once.
    const offline = screen.getByRole('row', { name: /设备离线/ });
    expect(within(offline).getAllByText('系统')).toHaveLength(1);

    // A log is read-only: nothing to add or edit.
    expect(screen.queryByRole('button', { name: /新\s*增/ })).toBeNull();
    expect(within(row).queryByRole('button', { name: button('编辑') })).toBeNull();
  });

  it('sends the time range, operator, module, action and outcome filters', async () => {
    await openOperations();
    // 今天 in Asia/Shanghai, whatever zone the tests run in.
    jest.spyOn(Date, 'now').mockReturnValue(NINE_THIRTY);
    await user.click(await screen.findByLabelText('时间'));
    await user.click(await screen.findByText('今天'));
    await user.type(screen.getByLabelText('操作人'), 'admin');
    await choose('模块', '用户管理');
    // Only the chosen module's actions are offered.
    await user.click(screen.getByLabelText('操作'));
    expect(await screen.findByText('编辑用户', { selector: '.ant-select-item-option-content' })).toBeInTheDocument();
    expect(screen.queryByText('角色授权', { selector: '.ant-select-item-option-content' })).toBeNull();
    await user.click(screen.getByText('编辑用户', { selector: '.ant-select-item-option-content' }));
    await choose('结果', '成功');
    await user.click(pageButton('查询'));

    await waitFor(() =>
      expect(log.last('/monitor/operation/inquire')).toEqual({
        size: 20,
        current: 1,
        params: {
          startAt: Date.UTC(2026, 1, 28, 16, 0, 0),
          endAt: Date.UTC(2026, 2, 1, 15, 59, 59, 999),
          operatorName: 'admin',
          module: '用户管理',
          action: '编辑用户',
          outcome: 'success',
        },
      }),
    );
  });

  it('shows an edit in the detail drawer: the fields before and after, and the parameters', async () => {
    const row = await openOperations();
    await user.click(within(row).getByRole('button', { name: button('详情') }));
    const title = await screen.findByText('操作详情：用户管理 · 编辑用户');
    const drawer = title.closest('.ant-drawer') as HTMLElement;
    const change = await within(drawer).findByRole('row', { name: /昵称/ });
    expect(log.last('/monitor/operation/detail')).toEqual({ id: userEdit.id });
    expect(within(drawer).getByRole('columnheader', { name: '修改前' })).toBeInTheDocument();
    expect(within(drawer).getByRole('columnheader', { name: '修改后' })).toBeInTheDocument();
    expect(within(change).getByText('张三')).toBeInTheDocument();
    expect(within(change).getByText('张三丰')).toBeInTheDocument();
    expect(within(drawer).getByText(/"nickName": "张三丰"/)).toBeInTheDocument();
    expect(within(drawer).getByText('/sys/user/edit')).toBeInTheDocument();
    expect(within(drawer).getByText('d4e5f6')).toBeInTheDocument();
  });

  it('exports the filtered list and saves the file under the name the server gave', async () => {
    const saved: string[] = [];
    URL.createObjectURL = jest.fn(() => 'blob:export');
    URL.revokeObjectURL = jest.fn();
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await openOperations();
    await user.type(screen.getByLabelText('操作人'), 'admin');
    await user.click(pageButton('查询'));
    await waitFor(() => expect(log.last('/monitor/operation/inquire')).toMatchObject({ params: { operatorName: 'admin' } }));

    await user.click(pageButton('导出'));
    await waitFor(() => expect(saved).toEqual([EXPORT_NAME]));
    expect(log.last('/monitor/operation/export')).toEqual({ params: { operatorName: 'admin' } });
  });

  it('shows the msg of a refused export as the toast', async () => {
    server.use(http.post(api('/monitor/operation/export'), () => fail(403, '没有权限导出操作日志')));
    await openOperations();
    await user.click(pageButton('导出'));
    expect(await screen.findByText('没有权限导出操作日志')).toBeInTheDocument();
  });

  it('verifies the hash chain and names the first broken record', async () => {
    await openOperations();
    await user.click(pageButton('校验完整性'));
    expect(await screen.findByText('校验通过')).toBeInTheDocument();
    expect(screen.getByText('已校验 3 条记录（编号 1 至 501），未发现篡改。')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /close|关闭/i }));

    server.use(
      http.post(api('/monitor/operation/integrity'), () => ok({ ok: false, checked: 120, anchorId: 0, headId: 501, firstBroken: { id: 377, reason: '记录内容与哈希不符' } })),
    );
    await user.click(pageButton('校验完整性'));
    expect(await screen.findByText('发现记录被篡改或删除')).toBeInTheDocument();
    expect(screen.getByText('第一条异常记录：编号 377（记录内容与哈希不符）。已校验 120 条记录。')).toBeInTheDocument();
  });
});
