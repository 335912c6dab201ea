import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import MonitorLoginScreen from '../../../src/client/features/monitor/login';
import { monitorHandlers, monitorMenu } from '../testing/handlers/monitor';
import { button } from '../testing/list-screen';
import { renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// antd tables and selects render slowly in jsdom on a CPU shared with other suites.
jest.setTimeout(120_000);

const user = userEvent.setup({ delay: null });
let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...monitorHandlers(log));
});

async function choose(label: string, option: string) {
  await user.click(screen.getByLabelText(label));
  await user.click(await screen.findByText(option, { selector: '.ant-select-item-option-content' }));
}

describe('monitor/login', () => {
  it('lists sign-ins with user, IP, browser, OS, time and dictionary labels, and sends the filters', async () => {
    renderScreen(MonitorLoginScreen, monitorMenu);
    const row = await screen.findByRole('row', { name: /zhangsan/ });
    await within(row).findByText('密码错误');
    expect(log.sent('/monitor/login/inquire')[0]).toEqual({ size: 20, current: 1, params: {} });
    expect(log.sent('/sys/dict/resource/inquire')).toContainEqual({ menuId: 32 });
    for (const text of ['10.0.0.9', 'Chrome 126.0', 'Windows 10', '2026-03-01 09:30:00', '登录', '用户名或密码错误']) {
      expect(within(row).getByText(text)).toBeInTheDocument();
    }
    expect(screen.queryByRole('button', { name: /新\s*增/ })).toBeNull();
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeInTheDocument();

    await user.type(screen.getByLabelText('用户名'), ' zhangsan ');
    await user.type(screen.getByLabelText('IP 地址'), '10.0.0.9');
    await choose('事件', '登录');
    await choose('结果', '密码错误');
    await user.click(screen.getByRole('button', { name: button('查询') }));
    await waitFor(() =>
      expect(log.last('/monitor/login/inquire')).toEqual({
        size: 20,
        current: 1,
        params: { userName: 'zhangsan', ip: '10.0.0.9', event: 'signIn', outcome: 'wrongPassword' },
      }),
    );
  });
});
