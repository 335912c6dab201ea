/** Finding one's way in the shell: breadcrumbs, the remembered sidebar collapse, the menu search and the phone drawer. */
import { act, waitFor, within } from '@testing-library/react';
import { http } from 'msw';

import { adminMenu, api, ok } from '../testing/handlers';
import { advancedHandlers } from '../testing/handlers/advanced';
import { user } from '../testing/list-screen';
import { renderApp, screen } from '../testing/render';
import { createRequestLog } from '../testing/request-log';
import { server } from '../testing/server';
import { activeTab, breadcrumb, shellScreenHandlers, tabTitles } from '../testing/shell';

jest.setTimeout(120_000);

beforeEach(() => server.use(...shellScreenHandlers(createRequestLog())));

describe('breadcrumb, sidebar and search', () => {
  it('shows the menu trail of the screen as breadcrumbs', async () => {
    const { router } = await renderApp({ path: '/', signedIn: true });
    await waitFor(() => expect(breadcrumb()).toEqual(['系统管理', '控制台']));
    await act(() => router.navigate('/hotel/device'));
    await waitFor(() => expect(breadcrumb()).toEqual(['酒店管理', '设备管理']));
    await act(() => router.navigate('/no/such/page'));
    await waitFor(() => expect(breadcrumb()).toEqual([]));
  });

  it('leads from a breadcrumb to the group’s first screen or to the screen', async () => {
    server.use(...advancedHandlers(createRequestLog()));
    const { router } = await renderApp({ path: '/hotel/advanced', signedIn: true });
    await waitFor(() => expect(breadcrumb()).toEqual(['酒店管理', '高级设置']));
    const step = (label: string) => within(document.querySelector('.shell-breadcrumb') as HTMLElement).getByRole('link', { name: label });
    expect(step('高级设置')).toHaveAttribute('href', '/hotel/advanced');
    await user.click(step('酒店管理'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/hotel/device'));
    await waitFor(() => expect(breadcrumb()).toEqual(['酒店管理', '设备管理']));
    await user.click(step('设备管理'));
    expect(router.state.location.pathname).toBe('/hotel/device');
  });

  it('collapses the sidebar to icons and remembers it across a reload', async () => {
    const first = await renderApp({ path: '/sys/panel', signedIn: true });
    await screen.findByText('启用用户 / 用户总数');
    expect(document.querySelector('.ant-layout-sider-collapsed')).toBeNull();
    await user.click(screen.getByRole('button', { name: '收起侧边栏' }));
    expect(document.querySelector('.ant-layout-sider-collapsed')).not.toBeNull();
    expect(document.querySelector('.ant-menu-inline-collapsed')).not.toBeNull();
    first.unmount();

    await renderApp({ path: '/sys/panel' });
    await screen.findByText('启用用户 / 用户总数');
    expect(document.querySelector('.ant-layout-sider-collapsed')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: '展开侧边栏' }));
    expect(document.querySelector('.ant-layout-sider-collapsed')).toBeNull();
  });

  it.each([
    ['pinyin initials', 'yhgl', ['用户管理']],
    ['part of the name', '管理', ['用户管理', '角色管理', '设备管理']],
    ['full pinyin', 'shebei', ['设备管理']],
  ])('finds screens by %s and opens the first with Enter', async (_label, query, found) => {
    const { router } = await renderApp({ path: '/sys/panel', signedIn: true });
    await screen.findByText('启用用户 / 用户总数');
    await user.click(screen.getByRole('button', { name: '搜索菜单' }));
    const input = await screen.findByLabelText('菜单名称或拼音首字母');
    await user.type(input, query);
    await waitFor(() => expect(screen.getAllByRole('option').map((option) => option.firstChild?.textContent)).toEqual(found));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/${found[0] === '用户管理' ? 'sys/user' : 'hotel/device'}`));
    await waitFor(() => expect(screen.queryByLabelText('菜单名称或拼音首字母')).toBeNull());
    expect(activeTab()).toBe(found[0]);
  });

  it('searches only the authorised screens, chooses with the arrow keys and opens with Ctrl+K', async () => {
    server.use(http.get(api('/sys/menu/authority'), () => ok(adminMenu.filter((entry) => entry.path !== '/sys/user'))));
    const { router } = await renderApp({ path: '/sys/panel', signedIn: true });
    await screen.findByText('启用用户 / 用户总数');
    await user.keyboard('{Control>}k{/Control}');
    const input = await screen.findByLabelText('菜单名称或拼音首字母');
    await user.type(input, 'gl');
    await waitFor(() => expect(screen.getAllByRole('option').map((option) => option.firstChild?.textContent)).toEqual(['角色管理', '设备管理']));
    expect(screen.getAllByRole('option')[0]).toHaveTextContent('系统管理');
    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/hotel/device'));
    // The screen loads before the test ends: its calls are answered, not left to the next test.
    expect(await screen.findByText('暂无数据', { selector: '.ant-empty-description' })).toBeInTheDocument();
  });
});

describe('on a phone', () => {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept only to be put back as it was
  const realMatchMedia = window.matchMedia;
  beforeEach(() => {
    window.matchMedia = (query: string) => ({ ...realMatchMedia(query), matches: query.includes('max-width: 767') });
  });
  afterEach(() => {
    window.matchMedia = realMatchMedia;
  });

  it('puts the menu in a drawer that closes once a screen is chosen', async () => {
    const { router } = await renderApp({ path: '/sys/panel', signedIn: true });
    await screen.findByText('启用用户 / 用户总数');
    expect(document.querySelector('.ant-layout-sider')).toBeNull();
    await user.click(screen.getByRole('button', { name: '打开菜单' }));
    const drawer = await screen.findByRole('dialog');
    await user.click(within(drawer).getByText('用户管理'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sys/user'));
    await waitFor(() => expect(document.querySelector('.ant-drawer-open')).toBeNull());
    expect(tabTitles()).toEqual(['控制台', '用户管理']);
    expect(await screen.findByText('alice')).toBeInTheDocument();
  });
});
