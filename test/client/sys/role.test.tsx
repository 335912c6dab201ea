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
  it('asks 15 menus per page, shows what the role holds and saves only the difference', async () => {
    await openRoleScreen();
    const dialog = await rowAction(/前台/, '授权');
    const userMenu = await within(dialog).findByRole('checkbox', { name: '用户管理' });
    await waitFor(() => expect(userMenu).toBeChecked());
    expect(log.sent('/sys/menu/resources')[0]).toEqual({ size: 15, current: 1 });
    expect(log.last('/sys/role/auth')).toEqual({ roleId: String(deskRole.id) });
    expect(within(dialog).getByRole('checkbox', { name: '查询用户' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: '新增用户' })).not.toBeChecked();

    // Checking the device menu checks its resources; one held resource is taken away.
    await user.click(within(dialog).getByRole('checkbox', { name: '设备管理' }));
    expect(within(dialog).getByRole('checkbox', { name: '查询设备' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: '编辑设备' })).toBeChecked();
    await user.click(within(dialog).getByRole('checkbox', { name: '查询用户' }));
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));

    expect(await screen.findByText('授权已保存')).toBeInTheDocument();
    const posted = log.sent('/sys/role/auth').find((payload) => typeof payload === 'object' && payload !== null && 'grant' in payload);
    expect(posted).toEqual({
      roleId: deskRole.id,
      grant: [
        { type: 'menu', resource: 11 },
        { type: 'resource', resource: 111 },
        { type: 'resource', resource: 112 },
      ],
      revoke: [{ type: 'resource', resource: 31 }],
    });
  });

  it('shows the built-in role holding everything, with nothing to edit or save', async () => {
    await openRoleScreen();
    const dialog = await rowAction(/超级管理员/, '授权');
    expect(await within(dialog).findByText('内置角色拥有全部权限，无需授权')).toBeInTheDocument();
    const boxes = await within(dialog).findAllByRole('checkbox');
    expect(boxes.length).toBeGreaterThan(0);
    for (const box of boxes) {
      expect(box).toBeChecked();
      expect(box).toBeDisabled();
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
