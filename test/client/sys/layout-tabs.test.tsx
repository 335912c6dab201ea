/**
 * The shell's tab bar as staff use it all day: open, switch with state kept, close with state
 * dropped, the context menu, reload, de-authorised tabs, per-user storage.
 */
import { act, fireEvent, waitFor, within } from '@testing-library/react';
import { http } from 'msw';

import { api as appApi } from '../../../src/client/lib/http/api';
import { adminMenu, api, fail, loginData, ok, panelData } from '../testing/handlers';
import { bob } from '../testing/handlers/user';
import { findRow, search, user } from '../testing/list-screen';
import { renderApp, screen } from '../testing/render';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';
import { activeTab, shellScreenHandlers, tabTitles } from '../testing/shell';

jest.setTimeout(120_000);

let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...shellScreenHandlers(log));
});

const TABS_KEY = 'shell.tabs.admin';

const tabNode = (title: string) => Array.from(document.querySelectorAll<HTMLElement>('.shell-tabs .ant-tabs-tab')).find((tab) => tab.textContent === title) as HTMLElement;
const selectedItem = () => document.querySelector('.ant-layout-sider .ant-menu-item-selected')?.textContent;
/** The user screen's filter input, in its pane (hidden or not). */
const userNameFilter = () => document.querySelector<HTMLInputElement>('.ant-form-inline input#' + CSS.escape(filterId()))!;
const filterId = () => (Array.from(document.querySelectorAll('.ant-form-inline label')).find((label) => label.textContent === '用户名') as HTMLLabelElement).htmlFor;

const PARENT: Record<string, string> = { 控制台: '系统管理', 用户管理: '系统管理', 角色管理: '系统管理', 设备管理: '酒店管理', 高级设置: '酒店管理' };
const sidebarItem = (label: string) => Array.from(document.querySelectorAll<HTMLElement>('.ant-layout-sider .ant-menu-title-content')).find((item) => item.textContent === label);

/** Clicks a sidebar item, unfolding its parent first when it is folded. */
async function openFromSidebar(label: string) {
  await screen.findByText(PARENT[label], { selector: '.ant-layout-sider .ant-menu-title-content' });
  if (!sidebarItem(label)) await user.click(sidebarItem(PARENT[label])!);
  await waitFor(() => expect(sidebarItem(label)).toBeDefined());
  await user.click(sidebarItem(label)!);
}

async function tabCommand(title: string, command: string) {
  fireEvent.contextMenu(tabNode(title));
  const item = await screen.findByText(command, { selector: '.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-title-content' });
  await user.click(item);
}

/** Filters the user list by name and moves to page 2, as someone at work would. */
async function filterUsersToPage2() {
  await findRow('alice');
  await user.type(userNameFilter(), 'ali');
  await search();
  await waitFor(() => expect(log.last('/sys/user/inquire')).toEqual({ size: 20, current: 1, params: { userName: 'ali' } }));
  await user.click(document.querySelector('.ant-pagination-item-2') as HTMLElement);
  // One page on: with the id of the last row page 1 showed (bob).
  await waitFor(() => expect(log.last('/sys/user/inquire')).toEqual({ size: 20, current: 2, after: bob.id, params: { userName: 'ali' } }));
}

describe('tab bar', () => {
  it('opens a tab per screen with the panel fixed first, and follows back and forward', async () => {
    let panelReads = 0;
    server.use(http.post(api('/sys/panel/inquire'), () => ((panelReads += 1), ok(panelData))));
    const { router } = await renderApp({ path: '/sys/panel', signedIn: true });
    await screen.findByText('启用用户 / 用户总数');
    expect(tabTitles()).toEqual(['控制台']);
    expect(tabNode('控制台').querySelector('.ant-tabs-tab-remove')).toBeNull();

    await openFromSidebar('用户管理');
    await findRow('alice');
    await openFromSidebar('设备管理');
    await waitFor(() => expect(tabTitles()).toEqual(['控制台', '用户管理', '设备管理']));
    expect(activeTab()).toBe('设备管理');
    expect(tabNode('用户管理').querySelector('.ant-tabs-tab-remove')).not.toBeNull();

    await act(() => router.navigate(-1));
    await waitFor(() => expect(activeTab()).toBe('用户管理'));
    expect(selectedItem()).toBe('用户管理');
    expect(router.state.location.pathname).toBe('/sys/user');

    expect(panelReads).toBe(1);
    await user.click(within(tabNode('控制台')).getByText('控制台'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sys/panel'));
    expect(selectedItem()).toBe('控制台');
    expect(tabTitles()).toEqual(['控制台', '用户管理', '设备管理']);
    // Back on the panel's tab: its figures are read again.
    await waitFor(() => expect(panelReads).toBe(2));
  });

  it('keeps a screen’s filters and page across a tab switch, and reads its rows again on return', async () => {
    await renderApp({ path: '/sys/user', signedIn: true });
    await filterUsersToPage2();
    const before = log.sent('/sys/user/inquire').length;

    await openFromSidebar('控制台');
    await screen.findByText('启用用户 / 用户总数');
    await user.click(within(tabNode('用户管理')).getByText('用户管理'));

    await waitFor(() => expect(log.sent('/sys/user/inquire')).toHaveLength(before + 1));
    expect(log.last('/sys/user/inquire')).toEqual({ size: 20, current: 2, after: bob.id, params: { userName: 'ali' } });
    expect(userNameFilter()).toHaveValue('ali');
    expect(document.querySelector('.ant-pagination-item-active')?.textContent).toBe('2');
  });

  it('closing a tab drops its screen’s state and shows its neighbour', async () => {
    const { router } = await renderApp({ path: '/sys/user', signedIn: true });
    await filterUsersToPage2();
    await openFromSidebar('设备管理');
    await user.click(within(tabNode('用户管理')).getByText('用户管理'));
    await waitFor(() => expect(activeTab()).toBe('用户管理'));

    await user.click(tabNode('用户管理').querySelector('.ant-tabs-tab-remove') as HTMLElement);
    await waitFor(() => expect(router.state.location.pathname).toBe('/hotel/device'));
    expect(tabTitles()).toEqual(['控制台', '设备管理']);
    expect(JSON.parse(localStorage.getItem(TABS_KEY)!)).toEqual(['hotel/device']);

    await openFromSidebar('用户管理');
    await waitFor(() => expect(log.last('/sys/user/inquire')).toEqual({ size: 20, current: 1, params: {} }));
    expect(userNameFilter()).toHaveValue('');
  });

  it('offers 刷新, 关闭其他, 关闭右侧 and 关闭全部 in each tab’s context menu', async () => {
    const { router } = await renderApp({ path: '/sys/user', signedIn: true });
    await filterUsersToPage2();
    await openFromSidebar('设备管理');
    await openFromSidebar('角色管理');
    await waitFor(() => expect(tabTitles()).toEqual(['控制台', '用户管理', '设备管理', '角色管理']));

    // 刷新 a hidden tab: its screen starts afresh when shown again.
    await tabCommand('用户管理', '刷新');
    await user.click(within(tabNode('用户管理')).getByText('用户管理'));
    await waitFor(() => expect(log.last('/sys/user/inquire')).toEqual({ size: 20, current: 1, params: {} }));
    expect(userNameFilter()).toHaveValue('');

    await tabCommand('设备管理', '关闭右侧');
    expect(tabTitles()).toEqual(['控制台', '用户管理', '设备管理']);
    expect(router.state.location.pathname).toBe('/sys/user');

    await tabCommand('设备管理', '关闭其他');
    await waitFor(() => expect(router.state.location.pathname).toBe('/hotel/device'));
    expect(tabTitles()).toEqual(['控制台', '设备管理']);

    await tabCommand('设备管理', '关闭全部');
    await waitFor(() => expect(router.state.location.pathname).toBe('/sys/panel'));
    expect(tabTitles()).toEqual(['控制台']);
    expect(localStorage.getItem(TABS_KEY)).toBeNull();
  });

  it('refreshes the active tab from the bar’s own menu (no right click needed)', async () => {
    await renderApp({ path: '/sys/user', signedIn: true });
    await filterUsersToPage2();
    await user.click(screen.getByRole('button', { name: '标签页操作' }));
    await user.click(await screen.findByText('刷新', { selector: '.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-title-content' }));
    await waitFor(() => expect(log.last('/sys/user/inquire')).toEqual({ size: 20, current: 1, params: {} }));
    expect(userNameFilter()).toHaveValue('');
  });

  it('restores the open tabs after a reload', async () => {
    const first = await renderApp({ path: '/sys/user', signedIn: true });
    await findRow('alice');
    await openFromSidebar('设备管理');
    await waitFor(() => expect(tabTitles()).toEqual(['控制台', '用户管理', '设备管理']));
    first.unmount();

    const { router } = await renderApp({ path: '/hotel/device' });
    await waitFor(() => expect(tabTitles()).toEqual(['控制台', '用户管理', '设备管理']));
    expect(activeTab()).toBe('设备管理');
    // A restored tab loads its screen only when it is shown.
    expect(log.sent('/sys/user/inquire')).toHaveLength(1);
    await user.click(within(tabNode('用户管理')).getByText('用户管理'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sys/user'));
    await findRow('alice');
  });

  it('drops a tab whose menu the server no longer grants at the next authority fetch', async () => {
    const { store } = await renderApp({ path: '/sys/user', signedIn: true });
    await findRow('alice');
    await openFromSidebar('设备管理');
    await waitFor(() => expect(tabTitles()).toEqual(['控制台', '用户管理', '设备管理']));

    server.use(http.get(api('/sys/menu/authority'), () => ok(adminMenu.filter((entry) => entry.path !== '/sys/user'))));
    act(() => {
      store.dispatch(appApi.util.invalidateTags(['Authority']));
    });
    await waitFor(() => expect(tabTitles()).toEqual(['控制台', '设备管理']));
    expect(JSON.parse(localStorage.getItem(TABS_KEY)!)).toEqual(['hotel/device']);
  });

  it('never shows one user’s tabs to the next user who signs in on the browser', async () => {
    // Left behind by admin (a session that ended without signing out).
    localStorage.setItem(TABS_KEY, JSON.stringify(['sys/user', 'hotel/device']));
    server.use(http.post(api('/sys/user/verify'), () => ok({ ...loginData(), userName: 'frontdesk', nickName: '前台' })));
    const { router } = await renderApp({ path: '/sys/verify' });
    await user.click(await screen.findByLabelText('用户名'));
    await user.paste('frontdesk');
    await user.click(screen.getByLabelText('密码'));
    await user.paste('secret-pass');
    await user.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await screen.findByText('启用用户 / 用户总数');
    expect(tabTitles()).toEqual(['控制台']);

    await openFromSidebar('角色管理');
    await waitFor(() => expect(JSON.parse(localStorage.getItem('shell.tabs.frontdesk')!)).toEqual(['sys/role']));
    expect(JSON.parse(localStorage.getItem(TABS_KEY)!)).toEqual(['sys/user', 'hotel/device']);

    // Signing out forgets every stored tab.
    await user.click(screen.getByText('前台', { selector: '.shell-user span' }));
    await user.click(await screen.findByText('退出登录'));
    await screen.findByLabelText('用户名');
    expect(localStorage.getItem('shell.tabs.frontdesk')).toBeNull();
    expect(localStorage.getItem(TABS_KEY)).toBeNull();
  });
});

describe('a session that ends with code 401', () => {
  it('forgets the stored tabs with the rest of the session', async () => {
    localStorage.setItem(TABS_KEY, JSON.stringify(['sys/user']));
    server.use(http.post(api('/sys/user/inquire'), () => fail(401, '登录已过期，请重新登录')));
    const { router } = await renderApp({ path: '/sys/user', signedIn: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sys/verify'));
    expect(localStorage.getItem(TABS_KEY)).toBeNull();
  });
});
