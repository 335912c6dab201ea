import { act, waitFor } from '@testing-library/react';
import { http } from 'msw';

import { api, ok } from '../testing/handlers';
import { adminMenuWithMonitor, monitorHandlers } from '../testing/handlers/monitor';
import { renderApp, screen, sidebarLabels } from '../testing/render';
import { createRequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// Whole-app renders with antd on a shared 2-core machine.
jest.setTimeout(60_000);

describe('系统监控 in the shell', () => {
  it('routes the three monitor views to their screens, with their menu icons', async () => {
    server.use(
      ...monitorHandlers(createRequestLog()),
      http.get(api('/sys/menu/authority'), () => ok(adminMenuWithMonitor)),
    );
    const { router } = await renderApp({ path: '/monitor/online', signedIn: true });
    expect(await screen.findByText('前台小王')).toBeInTheDocument();
    expect(sidebarLabels()).toEqual(expect.arrayContaining(['系统监控', '操作日志', '登录日志', '在线用户']));
    for (const icon of ['safety', 'file-search', 'login', 'wifi']) {
      expect(document.querySelector(`.ant-layout-sider .anticon-${icon}`)).not.toBeNull();
    }

    await act(() => router.navigate('/monitor/login'));
    expect(await screen.findByText('用户名或密码错误')).toBeInTheDocument();
    await act(() => router.navigate('/monitor/operation'));
    await waitFor(() => expect(screen.getAllByText('编辑用户').length).toBeGreaterThan(0));
    expect(screen.queryByText('页面不存在')).toBeNull();
  });
});
