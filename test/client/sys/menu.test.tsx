import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';

import SysMenuScreen from '../../../src/client/features/sys/menu';
import { api, fail } from '../testing/handlers';
import { menuHandlers, stateResource, systemMenu } from '../testing/handlers/menu';
import { button } from '../testing/list-screen';
import { findDialog, renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// antd dialogs render slowly in jsdom on a CPU shared with other suites.
jest.setTimeout(90_000);

const user = userEvent.setup({ delay: null });
let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...menuHandlers(log));
});

const listRequests = () => log.sent('/sys/menu/inquire').filter((body) => (body as { size: number }).size === 20);

async function openMenuScreen() {
  renderScreen(SysMenuScreen);
  return screen.findByRole('row', { name: /系统管理/ });
}

async function click(scope: HTMLElement, name: string) {
  await user.click(within(scope).getByRole('button', { name: button(name) }));
}

/** 新增 carries a plus icon, whose label is part of the button's name. */
async function openAdd(scope: HTMLElement) {
  await user.click(within(scope).getByRole('button', { name: /新\s*增/ }));
}

async function openResources() {
  await click(await openMenuScreen(), '资源');
  const title = await screen.findByText('菜单资源：系统管理');
  const drawer = title.closest('.ant-drawer') as HTMLElement;
  await within(drawer).findByRole('row', { name: /状态字段/ });
  return drawer;
}

describe('sys/menu', () => {
  it('lists the menu tree 20 per page with icons, dictionary labels and unknown views marked', async () => {
    const row = await openMenuScreen();
    // The parent select of the (pre-rendered) dialogs asks for every menu on its own.
    expect(listRequests()[0]).toEqual({ size: 20, current: 1, params: {} });
    expect(within(row).getByText('SettingOutlined')).toBeInTheDocument();
    expect(row.querySelector('.anticon-setting')).not.toBeNull();
    expect(within(row).getByText('启用')).toBeInTheDocument();
    expect(within(row).getByText('需要授权')).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: '展开行' }));
    const report = await screen.findByRole('row', { name: /报表/ });
    expect(within(report).getByText('未知视图')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /用户管理/ })).queryByText('未知视图')).toBeNull();
  });

  it('creates a top-level menu with isAuth sent as 0, toasts the server msg and reloads', async () => {
    await openMenuScreen();
    await openAdd(document.body);
    const dialog = await findDialog('新增菜单');
    await user.type(within(dialog).getByLabelText('菜单名称'), '报表');
    await user.type(within(dialog).getByLabelText('路由路径'), '/sys/report');
    await user.click(within(dialog).getByRole('switch', { name: '是否需要授权' }));
    await click(dialog, '保存');

    expect(await screen.findByText('菜单添加成功')).toBeInTheDocument();
    expect(log.last('/sys/menu/creation')).toEqual({ pid: null, name: '报表', path: '/sys/report', element: '', icon: '', sort: 0, state: 1, isAuth: 0 });
    await waitFor(() => expect(listRequests()).toHaveLength(2));
  });

  it('edits a menu with isAuth sent as 1 and toasts the server msg', async () => {
    await click(await openMenuScreen(), '编辑');
    const dialog = await findDialog('编辑菜单');
    const name = within(dialog).getByLabelText('菜单名称');
    await user.clear(name);
    await user.type(name, '系统');
    await click(dialog, '保存');

    expect(await screen.findByText('菜单修改成功')).toBeInTheDocument();
    expect(log.last('/sys/menu/edit')).toEqual({
      id: systemMenu.id,
      version: systemMenu.version,
      pid: null,
      name: '系统',
      path: '/sys',
      element: '',
      icon: 'SettingOutlined',
      sort: systemMenu.sort,
      state: 1,
      isAuth: 1,
    });
  });

  it('shows the server msg when an edit is refused', async () => {
    server.use(http.post(api('/sys/menu/edit'), () => fail(409, '数据已被他人修改，请刷新后重试')));
    await click(await openMenuScreen(), '编辑');
    const dialog = await findDialog('编辑菜单');
    await click(dialog, '保存');
    expect(await screen.findByText('数据已被他人修改，请刷新后重试')).toBeInTheDocument();
  });
});

describe('sys/menu 资源', () => {
  it('lists a menu resources 20 per page and creates one with type and field_type joined', async () => {
    const drawer = await openResources();
    expect(log.sent('/sys/resource/menu/inquire')[0]).toEqual({ size: 20, current: 1, params: { menuId: systemMenu.id } });

    await openAdd(drawer);
    const dialog = await findDialog('新增资源');
    await user.type(within(dialog).getByLabelText('资源名称'), '查询报表');
    await user.type(within(dialog).getByLabelText('资源标识'), 'inquire');
    await click(dialog, '保存');
    // An API resource must name its path.
    expect(await within(dialog).findByText('接口资源必须填写接口路径')).toBeInTheDocument();
    expect(log.sent('/sys/resource/creation')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('接口路径'), '/sys/report/inquire');
    await click(dialog, '保存');
    expect(await screen.findByText('资源添加成功')).toBeInTheDocument();
    expect(log.last('/sys/resource/creation')).toEqual({
      menuId: systemMenu.id,
      name: '查询报表',
      type: 'api_inquire',
      path: '/sys/report/inquire',
      remark: '',
    });
    await waitFor(() => expect(log.sent('/sys/resource/menu/inquire')).toHaveLength(2));
  });

  it('splits the stored type into its two inputs on edit and joins them again on save', async () => {
    const drawer = await openResources();
    await click(within(drawer).getByRole('row', { name: /状态字段/ }), '编辑');
    const dialog = await findDialog('编辑资源');
    expect(within(dialog).getByText('字段（field）')).toBeInTheDocument();
    const key = within(dialog).getByLabelText('资源标识');
    expect(key).toHaveValue('state');
    await user.clear(key);
    await user.type(key, 'online');
    await click(dialog, '保存');

    expect(await screen.findByText('资源修改成功')).toBeInTheDocument();
    expect(log.last('/sys/resource/edit')).toEqual({
      id: stateResource.id,
      version: stateResource.version,
      name: '状态字段',
      type: 'field_online',
      path: '',
      remark: '',
    });
  });
});
