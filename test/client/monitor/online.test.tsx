import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';

import MonitorOnlineScreen from '../../../src/client/features/monitor/online';
import { api, fail } from '../testing/handlers';
import { frontdeskSession, monitorHandlers, monitorMenu } from '../testing/handlers/monitor';
import { button } from '../testing/list-screen';
import { renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// antd tables and popconfirms render slowly in jsdom on a CPU shared with other suites.
jest.setTimeout(120_000);

const user = userEvent.setup({ delay: null });
let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...monitorHandlers(log));
});

async function openOnline() {
  renderScreen(MonitorOnlineScreen, monitorMenu);
  return screen.findByRole('row', { name: /frontdesk/ });
}

async function confirmAction(row: HTMLElement, action: string) {
  await user.click(within(row).getByRole('button', { name: button(action) }));
  await user.click(await screen.findByRole('button', { name: button('确定') }));
}

describe('monitor/online', () => {
  it('lists live sessions and marks the current one, which cannot be forced out here', async () => {
    const row = await openOnline();
    expect(log.sent('/monitor/online/inquire')[0]).toEqual({ size: 20, current: 1, params: {} });
    for (const text of ['前台小王', '前台', '10.0.0.21', 'Edge 125.0 / macOS 14.5', '2026-03-01 09:30:00', '2026-03-01 09:31:00', '2026-03-01 11:30:00']) {
      expect(within(row).getByText(text)).toBeInTheDocument();
    }
    const own = screen.getByRole('row', { name: /当前会话/ });
    expect(within(own).getByText('admin')).toBeInTheDocument();
    expect(within(own).getByRole('button', { name: button('强制下线') })).toBeDisabled();
    expect(within(row).getByRole('button', { name: button('强制下线') })).toBeEnabled();
  });

  it('has no 操作 column for a role that may only list the sessions', async () => {
    renderScreen(
      MonitorOnlineScreen,
      monitorMenu.map((menu) => (menu.element === 'monitor/online' ? { ...menu, granted: ['api_inquire'] } : menu)),
    );
    await screen.findByRole('row', { name: /frontdesk/ });
    expect(screen.getByText('角色', { selector: 'th, th *' })).toBeInTheDocument();
    expect(screen.queryByText('操作', { selector: 'th, th *' })).toBeNull();
  });

  it('forces one session out after confirmation, toasts the server msg and reloads the list', async () => {
    const row = await openOnline();
    await confirmAction(row, '强制下线');
    expect(await screen.findByText('已强制下线 1 个会话')).toBeInTheDocument();
    expect(log.last('/monitor/online/revoke')).toEqual({ sessionId: frontdeskSession.sessionId });
    await waitFor(() => expect(log.sent('/monitor/online/inquire')).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('row', { name: /frontdesk/ })).toBeNull());
  });

  it('forces all of a user’s sessions out', async () => {
    const row = await openOnline();
    await confirmAction(row, '全部下线');
    expect(await screen.findByText('已强制下线 1 个会话')).toBeInTheDocument();
    expect(log.last('/monitor/online/revoke/user')).toEqual({ userId: frontdeskSession.userId });
    await waitFor(() => expect(screen.queryByRole('row', { name: /frontdesk/ })).toBeNull());
  });

  it('shows the server’s refusal as the one toast and keeps the session listed', async () => {
    server.use(
      http.post(api('/monitor/online/revoke'), async ({ request }) => {
        await log.record(request);
        return fail(403, '不能强制下线角色权限超出你的用户');
      }),
    );
    const row = await openOnline();
    await confirmAction(row, '强制下线');
    expect(await screen.findByText('不能强制下线角色权限超出你的用户')).toBeInTheDocument();
    expect(document.querySelectorAll('.ant-message-notice')).toHaveLength(1);
    expect(screen.queryByText('已强制下线 1 个会话')).toBeNull();
    expect(log.last('/monitor/online/revoke')).toEqual({ sessionId: frontdeskSession.sessionId });
    expect(screen.getByRole('row', { name: /frontdesk/ })).toBeInTheDocument();
  });
});
