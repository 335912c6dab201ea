import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';

import { api, fail } from '../testing/handlers';
import { deskRole, roleHandlers } from '../testing/handlers/role';
import { button, rowButton } from '../testing/list-screen';
import { renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';
import SysRoleScreen from '../../../src/client/features/sys/role';

// antd dialogs render slowly in jsdom on a CPU shared with other suites.
jest.setTimeout(90_000);

const user = userEvent.setup({ delay: null });
let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...roleHandlers(log));
});

async function openRoleScreen() {
  renderScreen(SysRoleScreen);
  return screen.findByRole('row', { name: /前台/ });
}

async function rowAction(rowName: RegExp, action: string) {
  const row = await screen.findByRole('row', { name: rowName });
  await user.click(await rowButton(row, action));
  return screen.findByRole('dialog');
}

describe('sys/role list and dialogs', () => {
  it('lists roles 20 per page with dictionary labels', async () => {
    const row = await openRoleScreen();
    expect(within(row).getByText('启用')).toBeInTheDocument();
    expect(log.sent('/sys/role/inquire')[0]).toEqual({ size: 20, current: 1, params: {} });
  });

  it('creates a role, toasts the server msg and reloads the list', async () => {
    await openRoleScreen();
    await user.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('角色名称'), '夜审');
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));

    expect(await screen.findByText('角色添加成功')).toBeInTheDocument();
    // A new role sees every row until someone narrows it.
    expect(log.last('/sys/role/creation')).toEqual({ name: '夜审', remark: '', state: 1, dataScope: 'all' });
    await waitFor(() => expect(log.sent('/sys/role/inquire')).toHaveLength(2));
  });

  it('edits a role with its id and version and toasts the server msg', async () => {
    await openRoleScreen();
    const dialog = await rowAction(/前台/, '编辑');
    const name = within(dialog).getByLabelText('角色名称');
    await user.clear(name);
    await user.type(name, '前台接待');
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));

    expect(await screen.findByText('角色修改成功')).toBeInTheDocument();
    expect(log.last('/sys/role/edit')).toEqual({ id: deskRole.id, version: deskRole.version, name: '前台接待', remark: '', state: 1, dataScope: 'all' });
    await waitFor(() => expect(log.sent('/sys/role/inquire')).toHaveLength(2));
  });

  it('creates a role with the data scope chosen in the form', async () => {
    await openRoleScreen();
    await user.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('角色名称'), '店长');
    await user.click(within(dialog).getByLabelText('数据范围'));
    await user.click(await screen.findByTitle('仅本单位'));
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));

    expect(await screen.findByText('角色添加成功')).toBeInTheDocument();
    expect(log.last('/sys/role/creation')).toEqual({ name: '店长', remark: '', state: 1, dataScope: 'org' });
  });

  it('shows the server msg of a refused save and keeps the dialog open', async () => {
    server.use(http.post(api('/sys/role/creation'), () => fail(409, '角色名称“前台”已存在')));
    await openRoleScreen();
    await user.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('角色名称'), '前台');
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));

    expect(await screen.findByText('角色名称“前台”已存在')).toBeInTheDocument();
    expect(dialog).toBeVisible();
    expect(within(dialog).getByLabelText('角色名称')).toHaveValue('前台');
    expect(screen.queryByText('角色添加成功')).toBeNull();
  });
});

describe('sys/role 授权', () => {
  const box = (dialog: HTMLElement, name: string) => within(dialog).getByRole('checkbox', { name });

  it('shows every menu as one tree with plain labels, what the role holds and half-ticked menus', async () => {
    await openRoleScreen();
    const dialog = await rowAction(/前台/, '授权');
    await waitFor(() => expect(box(dialog, '查询用户')).toHaveAttribute('aria-checked', 'true'));
    // One request for every menu: no pager, so 接口文档 (no resources) is there too.
    expect(log.sent('/sys/menu/resources')).toEqual([{ size: 100, current: 1 }]);
    expect(within(dialog).queryByRole('listitem', { name: /下一页|Next/ })).toBeNull();
    expect(box(dialog, '接口文档')).toHaveAttribute('aria-checked', 'false');
    expect(box(dialog, '查看「设备类型」选项')).toBeInTheDocument();
    expect(within(dialog).queryByText('设备管理·设备类型')).toBeNull();

    // 前台 holds 查询用户 but not 新增用户: its menu and area are half-ticked.
    expect(box(dialog, '新增用户')).toHaveAttribute('aria-checked', 'false');
    expect(box(dialog, '用户管理')).toHaveAttribute('aria-checked', 'mixed');
    expect(box(dialog, '系统管理')).toHaveAttribute('aria-checked', 'mixed');
    expect(within(dialog).getByText(/勾选某个资源时，保存后该角色也能看到它所在的菜单/)).toBeInTheDocument();
  });

  it('ticks a menu with all its resources, half-ticks it when one is unticked, and saves the difference', async () => {
    await openRoleScreen();
    const dialog = await rowAction(/前台/, '授权');
    await waitFor(() => expect(box(dialog, '查询用户')).toHaveAttribute('aria-checked', 'true'));

    await user.click(box(dialog, '设备管理'));
    expect(box(dialog, '设备管理')).toHaveAttribute('aria-checked', 'true');
    expect(box(dialog, '查询设备')).toHaveAttribute('aria-checked', 'true');
    expect(box(dialog, '编辑设备')).toHaveAttribute('aria-checked', 'true');
    await user.click(box(dialog, '编辑设备'));
    expect(box(dialog, '设备管理')).toHaveAttribute('aria-checked', 'mixed');
    expect(box(dialog, '酒店管理')).toHaveAttribute('aria-checked', 'mixed');
    // Unticking the user menu's only held resource takes the menu away with it.
    await user.click(box(dialog, '查询用户'));
    expect(box(dialog, '用户管理')).toHaveAttribute('aria-checked', 'false');
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));

    expect(await screen.findByText('授权已保存')).toBeInTheDocument();
    const posted = log.sent('/sys/role/auth').find((payload) => typeof payload === 'object' && payload !== null && 'grant' in payload) as {
      grant: unknown[];
      revoke: unknown[];
    };
    expect(posted).toMatchObject({ roleId: deskRole.id });
    expect(posted.grant).toEqual(
      expect.arrayContaining([
        { type: 'resource', resource: 111 },
        { type: 'resource', resource: 113 },
        { type: 'menu', resource: 11 },
        { type: 'menu', resource: 10 },
      ]),
    );
    expect(posted.grant).toHaveLength(4);
    expect(posted.revoke).toEqual(
      expect.arrayContaining([
        { type: 'resource', resource: 31 },
        { type: 'menu', resource: 3 },
      ]),
    );
    expect(posted.revoke).toHaveLength(2);
  });

  it('narrows the tree by the search words and keeps ticks made outside it', async () => {
    await openRoleScreen();
    const dialog = await rowAction(/前台/, '授权');
    await waitFor(() => expect(box(dialog, '查询用户')).toHaveAttribute('aria-checked', 'true'));

    await user.type(within(dialog).getByRole('searchbox', { name: '搜索菜单或资源' }), '编辑设备');
    await waitFor(() => expect(within(dialog).queryByRole('checkbox', { name: '用户管理' })).toBeNull());
    // The matching resource keeps the menus above it; its siblings are hidden.
    expect(box(dialog, '设备管理')).toBeInTheDocument();
    expect(within(dialog).queryByRole('checkbox', { name: '查询设备' })).toBeNull();
    await user.click(box(dialog, '编辑设备'));
    // Still half-ticked: the hidden siblings are not ticked.
    expect(box(dialog, '设备管理')).toHaveAttribute('aria-checked', 'mixed');

    await user.clear(within(dialog).getByRole('searchbox', { name: '搜索菜单或资源' }));
    expect(await within(dialog).findByRole('checkbox', { name: '查询用户' })).toHaveAttribute('aria-checked', 'true');
    expect(box(dialog, '编辑设备')).toHaveAttribute('aria-checked', 'true');
  });

  it('shows the built-in role holding everything, with nothing to edit or save', async () => {
    await openRoleScreen();
    const dialog = await rowAction(/超级管理员/, '授权');
    expect(await within(dialog).findByText('内置角色拥有全部权限，无需授权')).toBeInTheDocument();
    const boxes = await within(dialog).findAllByRole('checkbox');
    expect(boxes.length).toBe(11);
    for (const each of boxes) {
      expect(each).toHaveAttribute('aria-checked', 'true');
      expect(each).toHaveAttribute('aria-disabled', 'true');
    }
    expect(within(dialog).queryByRole('button', { name: button('保存') })).toBeNull();
    expect(log.sent('/sys/role/auth')).toHaveLength(0);
  });
});

describe('sys/role 用户', () => {
  it('lists the role users 10 per page and unbinds one with the server msg', async () => {
    await openRoleScreen();
    const dialog = await rowAction(/前台/, '用户');
    const row = await within(dialog).findByRole('row', { name: /desk01/ });
    expect(log.sent('/sys/role/user/inquire')[0]).toEqual({ size: 10, current: 1, params: { roleId: deskRole.id, member: 1 } });

    await user.click(within(row).getByRole('button', { name: button('解绑') }));
    await user.click(await screen.findByRole('button', { name: button('确定') }));

    expect(await screen.findByText('已解绑用户 desk01')).toBeInTheDocument();
    expect(log.last('/sys/role/unbind/user')).toEqual({ userId: 21, roleId: deskRole.id });
    await waitFor(() => expect(log.sent('/sys/role/user/inquire')).toHaveLength(2));
  });

  it('finds a user by name and binds them to the role', async () => {
    await openRoleScreen();
    const dialog = await rowAction(/前台/, '用户');
    await within(dialog).findByRole('row', { name: /desk01/ });
    await user.type(within(dialog).getByRole('combobox'), 'clerk');
    await user.click(await screen.findByText('clerk02（clerk02-昵称，当前角色：客房）'));
    expect(log.last('/sys/role/user/inquire')).toEqual({ size: 20, current: 1, params: { roleId: deskRole.id, member: 0, userName: 'clerk' } });
    await user.click(within(dialog).getByRole('button', { name: '绑定用户' }));

    expect(await screen.findByText('已绑定用户 clerk02')).toBeInTheDocument();
    expect(log.last('/sys/role/bind/user')).toEqual({ userId: 22, roleId: deskRole.id });
  });
});
