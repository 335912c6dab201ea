import { act, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';

import { adminMenu, api, fail, loginData, ok } from './testing/handlers';
import { renderApp, screen, sidebarLabels } from './testing/render';
import { server } from './testing/server';

// Whole-app renders with antd under a shared 2-core machine: allow more than jest's 5 s default.
jest.setTimeout(30_000);

const user = userEvent.setup();

/** Fill an input in one event: typing key by key is too slow here for antd's controlled inputs. */
async function fill(input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
}

async function signIn(userName = 'admin', password = 'secret-pass') {
  await fill(await screen.findByLabelText('用户名'), userName);
  await fill(screen.getByLabelText('密码'), password);
  await user.click(screen.getByRole('button', { name: /登\s*录/ }));
}

/** Shown, not kept hidden in the pane of a tab in the background. */
const isShown = (element: HTMLElement) => element.closest('[hidden]') === null;
const findShown = async (text: string) => {
  await waitFor(() => expect(screen.getAllByText(text).filter(isShown)).toHaveLength(1));
  return screen.getAllByText(text).filter(isShown)[0];
};

const selectedItem = () => document.querySelector('.ant-menu-item-selected')?.textContent;
const openSubmenus = () => Array.from(document.querySelectorAll('.ant-menu-submenu-open > .ant-menu-submenu-title')).map((node) => node.textContent);

describe('guard', () => {
  it('sends a visitor without a token to the login, carrying the path, and clears stored data', async () => {
    localStorage.setItem('userName', 'stale');
    const { router } = await renderApp({ path: '/hotel/device?page=2' });
    expect(await screen.findByLabelText('用户名')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sys/verify');
    expect(router.state.location.state).toMatchObject({ from: { pathname: '/hotel/device', search: '?page=2' } });
    expect(router.state.historyAction).toBe('REPLACE');
    expect(localStorage.getItem('userName')).toBeNull();
  });
});

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

describe('shell', () => {
  it('recomputes the selected and open keys on back and forward', async () => {
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
    await user.click(await screen.findByText('系统管理员'));
    await user.click(await screen.findByText('退出登录'));

    expect(await screen.findByLabelText('用户名')).toBeInTheDocument();
    expect(events).toEqual([`server:bearer:${loginData().token}`]);
    expect(router.state.location.pathname).toBe('/sys/verify');
    expect(localStorage.getItem('token')).toBeNull();
    expect(store.getState().session.menu).toEqual([]);
    expect(store.getState().api.queries).toEqual({});
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
