/** The sign-in screen (sys/verify) in the real app: storing the session, the redirect, refusals. */
import { waitFor } from '@testing-library/react';
import { http } from 'msw';

import { selectedItem, signIn, user } from '../testing/app';
import { adminMenu, api, fail, loginData, ok } from '../testing/handlers';
import { renderApp, screen, sidebarLabels } from '../testing/render';
import { createRequestLog } from '../testing/request-log';
import { server } from '../testing/server';
import { shellScreenHandlers } from '../testing/shell';

// Whole-app renders with antd under a shared 2-core machine: allow more than jest's 5 s default.
jest.setTimeout(30_000);

describe('login', () => {
  it('stores the session, replaces history with / and shows exactly the authorised menu', async () => {
    const authorised = adminMenu.slice(0, 3);
    server.use(
      http.post(api('/sys/user/verify'), () => ok(loginData(authorised))),
      http.get(api('/sys/menu/authority'), () => ok(authorised)),
    );
    const { router } = await renderApp({ path: '/sys/verify' });
    await signIn();

    expect(await screen.findByText('启用用户 / 用户总数')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(localStorage.getItem('token')).toBe(loginData().token);
    expect(localStorage.getItem('userName')).toBe('admin');
    expect(localStorage.getItem('nickName')).toBe('系统管理员');
    expect(sidebarLabels()).toEqual(['系统管理', '控制台', '用户管理']);
    expect(selectedItem()).toBe('控制台');
  });

  it('returns to the path the guard carried', async () => {
    // The device screen it returns to asks for its rows, locations and capabilities.
    server.use(...shellScreenHandlers(createRequestLog()));
    const { router } = await renderApp({ path: '/hotel/device' });
    await signIn();
    await waitFor(() => expect(router.state.location.pathname).toBe('/hotel/device'));
    expect(router.state.historyAction).toBe('REPLACE');
    await waitFor(() => expect(selectedItem()).toBe('设备管理'));
  });

  it.each([
    ['the server msg', '用户名或密码错误', '用户名或密码错误'],
    ['用户未绑定角色 for a user without a role', '用户未绑定角色', '用户未绑定角色'],
    ['登录失败 when the server gives no msg', '', '登录失败'],
  ])('shows %s and stays on the login', async (_label, msg, shown) => {
    server.use(http.post(api('/sys/user/verify'), () => fail(400, msg)));
    const { router } = await renderApp({ path: '/sys/verify' });
    await signIn();
    expect(await screen.findByText(shown)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sys/verify');
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getByRole('button', { name: /登\s*录/ })).not.toHaveClass('ant-btn-loading');
  });

  it('asks for empty fields without calling the server', async () => {
    let called = false;
    server.use(http.post(api('/sys/user/verify'), () => ((called = true), ok(loginData()))));
    await renderApp({ path: '/sys/verify' });
    await user.click(await screen.findByRole('button', { name: /登\s*录/ }));
    expect(screen.getByText('请输入用户名')).toBeInTheDocument();
    expect(screen.getByText('请输入密码')).toBeInTheDocument();
    expect(called).toBe(false);
  });
});
