/** The shell (sys/layout) in the real app: sidebar keys, the unknown screen, sign-out, own password. */
import { act, waitFor, within } from '@testing-library/react';
import { http } from 'msw';

import { fill, findShown, isShown, openSubmenus, selectedItem, user } from '../testing/app';
import { adminMenu, api, fail, loginData, ok } from '../testing/handlers';
import { renderApp, screen, sidebarLabels, storeSession } from '../testing/render';
import { createRequestLog } from '../testing/request-log';
import { server } from '../testing/server';
import { shellScreenHandlers } from '../testing/shell';

// Whole-app renders with antd under a shared 2-core machine: allow more than jest's 5 s default.
jest.setTimeout(30_000);

describe('shell', () => {
  it('recomputes the selected and open keys on back and forward', async () => {
    // The device screen it opens asks for its rows, locations and capabilities.
    server.use(...shellScreenHandlers(createRequestLog()));
    const { router } = await renderApp({ path: '/sys/panel', signedIn: true });
    await screen.findByText('启用用户 / 用户总数');
    expect(selectedItem()).toBe('控制台');
    expect(openSubmenus()).toEqual(['系统管理']);

    await act(() => router.navigate('/hotel/device'));
    await waitFor(() => expect(selectedItem()).toBe('设备管理'));
    expect(openSubmenus()).toEqual(['酒店管理']);

    await act(() => router.navigate(-1));
    await waitFor(() => expect(selectedItem()).toBe('控制台'));
    expect(openSubmenus()).toEqual(['系统管理']);

    await act(() => router.navigate(1));
    await waitFor(() => expect(selectedItem()).toBe('设备管理'));
    expect(openSubmenus()).toEqual(['酒店管理']);
  });

  it('navigates from the sidebar', async () => {
    const { router } = await renderApp({ path: '/', signedIn: true });
    await user.click(await screen.findByText('用户管理'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sys/user'));
  });

  it('shows the unknown screen for a menu element with no view and for an unmatched path', async () => {
    const withUnknown = [...adminMenu, { ...adminMenu[1], id: 30, name: '旧报表', path: '/sys/report', element: 'sys/report' }];
    server.use(http.get(api('/sys/menu/authority'), () => ok(withUnknown)));
    const { router } = await renderApp({ path: '/sys/report', signedIn: true });
    expect(await findShown('页面不存在')).toBeVisible();
    expect(selectedItem()).toBe('旧报表');

    // The 旧报表 tab stays open behind it, its screen kept but hidden: one unknown screen on show.
    await act(() => router.navigate('/no/such/page'));
    await waitFor(() => expect(screen.getAllByText('页面不存在').filter(isShown)).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: '返回首页' }));
    expect(await screen.findByText('启用用户 / 用户总数')).toBeInTheDocument();
  });

  it('sends the user to the login when a call answers code 401', async () => {
    server.use(http.post(api('/sys/panel/inquire'), () => fail(401, '登录已过期，请重新登录')));
    const { router } = await renderApp({ path: '/sys/panel', signedIn: true });
    expect(await screen.findByLabelText('用户名')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sys/verify');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('logs out on the server first, then forgets the session', async () => {
    const events: string[] = [];
    server.use(
      http.post(api('/sys/user/logout'), ({ request }) => {
        events.push(`server:${request.headers.get('authorization') ? 'bearer' : 'none'}:${localStorage.getItem('token') ?? 'cleared'}`);
        return ok(null);
      }),
    );
    const { router, store } = await renderApp({ path: '/sys/panel', signedIn: true });
    localStorage.setItem('shell.tabs.admin', JSON.stringify(['sys/user']));
    await user.click(await screen.findByText('系统管理员'));
    await user.click(await screen.findByText('退出登录'));

    expect(await screen.findByLabelText('用户名')).toBeInTheDocument();
    expect(events).toEqual([`server:bearer:${loginData().token}`]);
    expect(router.state.location.pathname).toBe('/sys/verify');
    expect(localStorage.getItem('token')).toBeNull();
    // The one handler of session/ended (session-end.ts) cleared everything the session left in storage.
    expect(localStorage.length).toBe(0);
    expect(store.getState().session.menu).toEqual([]);
    expect(store.getState().api.queries).toEqual({});
  });

  it('draws the shell at once from the menu kept from the last visit, then takes the authority’s', async () => {
    let answer: (menu: typeof adminMenu) => void = () => undefined;
    const answered = new Promise<typeof adminMenu>((resolve) => (answer = resolve));
    server.use(http.get(api('/sys/menu/authority'), async () => ok(await answered)));
    storeSession(undefined, adminMenu.slice(0, 3));
    const { persistor } = await renderApp({ path: '/sys/panel' });

    // The authority has not answered yet: the shell and the panel come from the kept menu.
    expect(await screen.findByText('启用用户 / 用户总数')).toBeInTheDocument();
    expect(sidebarLabels()).toEqual(['系统管理', '控制台', '用户管理']);

    answer(adminMenu);
    await waitFor(() => expect(sidebarLabels()).toContain('酒店管理'));
    await act(() => persistor.flush());
    expect(JSON.parse(localStorage.getItem('menu')!)).toEqual(adminMenu);
  });

  it('changes the password and shows the server msg', async () => {
    let sent: unknown;
    server.use(
      http.post(api('/sys/user/password'), async ({ request }) => {
        sent = await request.json();
        return ok(null, '密码已修改，其他设备上的登录已退出');
      }),
    );
    await renderApp({ path: '/sys/panel', signedIn: true });
    await user.click(await screen.findByText('系统管理员'));
    await user.click(await screen.findByRole('menuitem', { name: '修改密码' }));
    const dialog = await screen.findByRole('dialog');
    await fill(within(dialog).getByLabelText('原密码'), 'old-secret');
    await fill(within(dialog).getByLabelText('新密码'), 'new-secret-1');
    await fill(within(dialog).getByLabelText('确认新密码'), 'new-secret-2');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('两次输入的新密码不一致')).toBeInTheDocument();
    expect(sent).toBeUndefined();

    await user.clear(within(dialog).getByLabelText('确认新密码'));
    await fill(within(dialog).getByLabelText('确认新密码'), 'new-secret-1');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('密码已修改，其他设备上的登录已退出')).toBeInTheDocument();
    expect(sent).toEqual({ oldPassword: 'old-secret', newPassword: 'new-secret-1' });
  }, 120_000);
});
