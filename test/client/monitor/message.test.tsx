import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import MonitorMessageScreen from '../../../src/client/features/monitor/message';
import { button, columnWidth } from '../testing/list-screen';
import { deadLetter, messageHandlers, notifyMenu } from '../testing/handlers/notify';
import { renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// antd tables and popconfirms render slowly in jsdom on a CPU shared with other suites.
jest.setTimeout(120_000);

const user = userEvent.setup({ delay: null });
let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...messageHandlers(log));
});

async function openMessages() {
  renderScreen(MonitorMessageScreen, notifyMenu);
  const row = await screen.findByRole('row', { name: /902/ });
  await within(row).findByText('发送失败');
  return row;
}

describe('monitor/message', () => {
  it('lists messages with channel, kind, state, attempts, the vendor answer and the last error', async () => {
    const row = await openMessages();
    expect(log.sent('/monitor/message/inquire')[0]).toEqual({ size: 20, current: 1, params: {} });
    for (const text of ['工程部钉钉群', '钉钉机器人', '告警', '设备离线：0808 门锁', '5', '503 Service Unavailable', '厂商暂时不可用（HTTP 503），已尝试 5 次']) {
      expect(within(row).getByText(text)).toBeInTheDocument();
    }
    const sent = screen.getByRole('row', { name: /901/ });
    expect(within(sent).getByText('已发送')).toBeInTheDocument();
    expect(within(sent).getByText('250 OK queued')).toBeInTheDocument();
    expect(within(sent).queryByRole('button', { name: button('重发') })).toBeNull();
    expect(screen.getByRole('button', { name: button('导出') })).toBeInTheDocument();
  });

  it('重发 queues a dead letter again after confirmation and reloads the list', async () => {
    const row = await openMessages();
    await user.click(within(row).getByRole('button', { name: button('重发') }));
    await user.click(await screen.findByRole('button', { name: button('确定') }));
    expect(await screen.findByText('已重新排队 1 条消息')).toBeInTheDocument();
    expect(log.last('/monitor/message/resend')).toEqual({ ids: [deadLetter.id] });
    await waitFor(() => expect(log.sent('/monitor/message/inquire')).toHaveLength(2));
  });

  it('详情 shows the whole text and the vendor answer', async () => {
    const row = await openMessages();
    await user.click(within(row).getByRole('button', { name: button('详情') }));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('**设备**：0808 门锁（LOCK-0808）')).toBeInTheDocument();
    expect(within(drawer).getByText('Service Unavailable')).toBeInTheDocument();
  });

  it('filters by state', async () => {
    await openMessages();
    await user.click(screen.getByLabelText('状态'));
    await user.click(await screen.findByText('发送失败', { selector: '.ant-select-item-option-content' }));
    await user.click(screen.getByRole('button', { name: button('查询') }));
    await waitFor(() => expect(log.last('/monitor/message/inquire')).toEqual({ size: 20, current: 1, params: { state: 'failed' } }));
  });
});

describe('monitor/message channels', () => {
  it('offers the 渠道 filter its own channel choices to a role holding 通知记录 alone', async () => {
    const messageOnly = notifyMenu
      .filter((entry) => entry.element === '' || entry.element === 'monitor/message')
      .map((entry) => (entry.element === '' ? entry : { ...entry, granted: ['api_inquire', 'api_channelChoices'] }));
    renderScreen(MonitorMessageScreen, messageOnly);
    await screen.findByRole('row', { name: /902/ });
    await user.click(screen.getByLabelText('渠道'));
    await user.click(await screen.findByText('经理邮件', { selector: '.ant-select-item-option-content' }));
    await user.click(screen.getByRole('button', { name: button('查询') }));
    await waitFor(() => expect(log.last('/monitor/message/inquire')).toEqual({ size: 20, current: 1, params: { channelId: 4 } }));
    expect(log.sent('/monitor/message/channel/choices').length).toBeGreaterThan(0);
    expect(log.sent('/monitor/channel/inquire')).toHaveLength(0);
  });
});

describe('monitor/message layout', () => {
  it('gives every one-line column its width and scrolls sideways on a narrow screen instead of overlapping', async () => {
    await openMessages();
    for (const title of ['创建时间', '渠道', '消息类型', '状态', '发送时间']) expect(columnWidth(title)).toMatch(/^\d+px$/);
    expect(document.querySelector('.ant-table-content table')).toHaveStyle({ minWidth: '100%' });
    expect((document.querySelector('.ant-table-content table') as HTMLElement).style.width).toBe('1320px');
  });
});
