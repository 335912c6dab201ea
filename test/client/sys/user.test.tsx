import { waitFor, within } from '@testing-library/react';
import { http } from 'msw';

import { api, fail } from '../testing/handlers';
import { adminWithoutUnitPicker } from '../testing/handlers/pickers';
import { alice, bob, userHandlers } from '../testing/handlers/user';
import { button, columnWidth, fill, filterField, findRow, openAdd, openDialog, openScreen, rowAction, saveDialog, search, user } from '../testing/list-screen';
import { screen } from '../testing/render';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';
import { USER_TABLE_WIDTH } from '../../../src/client/features/sys/user/config';
import { formatTime } from '../../../src/client/lib/time';

// Whole-app renders with antd dialogs take seconds on a shared, busy machine.
jest.setTimeout(120_000);

let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...userHandlers(log));
  // Used after, so it answers the authority before theirs: no 可选单位 (the unit tree and picker are user-org.test's).
  server.use(adminWithoutUnitPicker());
});

const openUsers = () => openScreen('/sys/user', 'alice');

describe('sys/user', () => {
  it('lists 20 per page with dictionary state labels and sends the filters as params', async () => {
    await openUsers();
    expect(log.sent('/sys/user/inquire')[0]).toEqual({ size: 20, current: 1, params: {} });
    expect(within(await findRow('alice')).getByText('启用')).toBeInTheDocument();
    expect(within(await findRow('bob')).getByText('禁用')).toBeInTheDocument();

    await user.type(filterField('用户名'), ' ali ');
    await search();
    await waitFor(() => expect(log.last('/sys/user/inquire')).toEqual({ size: 20, current: 1, params: { userName: 'ali' } }));
  });

  it('disables the ticked users in one batch after asking, and clears the ticks', async () => {
    await openUsers();
    const disable = screen.getByRole('button', { name: button('批量禁用') });
    expect(disable).toBeDisabled();
    await user.click(within(await findRow('alice')).getByRole('checkbox'));
    await user.click(within(await findRow('bob')).getByRole('checkbox'));
    expect(screen.getByText('已选 2 项')).toBeInTheDocument();

    await user.click(disable);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('禁用的用户将立即退出登录。确定禁用所选的 2 个用户？')).toBeInTheDocument();
    expect(log.sent('/sys/user/batch/state')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: button('确定') }));
    expect(await screen.findByText('已禁用 2 个用户')).toBeInTheDocument();
    expect(log.last('/sys/user/batch/state')).toEqual({ ids: [alice.id, bob.id], state: 0 });
    await waitFor(() => expect(screen.queryByText('已选 2 项')).toBeNull());
  });

  it('creates a user, toasts 账号添加成功 with the name, reloads the list and resets the form', async () => {
    await openUsers();
    const dialog = await openAdd();
    await fill(dialog, { 用户名: 'carol', 昵称: '卡罗尔', 密码: 'Str0ng-pass' });
    await saveDialog(dialog);

    expect(await screen.findByText('账号添加成功：carol')).toBeInTheDocument();
    expect(log.last('/sys/user/creation')).toEqual({ userName: 'carol', nickName: '卡罗尔', password: 'Str0ng-pass', state: 1, roleId: null });
    await waitFor(() => expect(log.sent('/sys/user/inquire')).toHaveLength(2));

    const again = await openAdd();
    expect(within(again).getByLabelText('用户名')).toHaveValue('');
    expect(within(again).getByLabelText('密码')).toHaveValue('');
  });

  it('offers the roles the caller may give, asked of the user screen (not the role screen a user manager may lack)', async () => {
    await openUsers();
    const dialog = await openAdd();
    await fill(dialog, { 用户名: 'dora', 昵称: '朵拉', 密码: 'Str0ng-pass' });
    await user.click(within(dialog).getByLabelText('角色'));
    await user.click(await screen.findByText('客房', { selector: '.ant-select-item-option-content' }));
    await saveDialog(dialog);

    expect(await screen.findByText('账号添加成功：dora')).toBeInTheDocument();
    expect(log.last('/sys/user/creation')).toMatchObject({ userName: 'dora', roleId: 5 });
    expect(log.sent('/sys/user/role/choices').length).toBeGreaterThan(0);
  });

  it('edits without a password, with the id and version, closes the dialog and reloads', async () => {
    await openUsers();
    const dialog = await openDialog(() => rowAction('alice', '编辑'));
    expect(within(dialog).queryByLabelText('密码')).toBeNull();
    await fill(dialog, { 昵称: '爱丽丝' });
    await saveDialog(dialog);

    expect(await screen.findByText('用户已修改')).toBeInTheDocument();
    expect(log.last('/sys/user/edit')).toEqual({ id: alice.id, version: alice.version, nickName: '爱丽丝', state: 1, roleId: 2 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(log.sent('/sys/user/inquire')).toHaveLength(2));
  });

  it('shows the server msg of a refused creation and keeps the dialog open', async () => {
    server.use(http.post(api('/sys/user/creation'), () => fail(409, '用户名“alice”已存在')));
    await openUsers();
    const dialog = await openAdd();
    await fill(dialog, { 用户名: 'alice', 昵称: '重名', 密码: 'Str0ng-pass' });
    await saveDialog(dialog);

    expect(await screen.findByText('用户名“alice”已存在')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeVisible();
    expect(within(screen.getByRole('dialog')).getByLabelText('用户名')).toHaveValue('alice');
  });

  it('refuses an empty required field in Chinese before calling the server', async () => {
    await openUsers();
    const dialog = await openAdd();
    await saveDialog(dialog);
    expect(await within(dialog).findByText('请输入用户名')).toBeInTheDocument();
    expect(log.sent('/sys/user/creation')).toHaveLength(0);
  });

  it('resets a password and toasts the server msg', async () => {
    await openUsers();
    const dialog = await openDialog(() => rowAction('alice', '重置密码'));
    await fill(dialog, { 新密码: 'An0ther-pass' });
    await saveDialog(dialog);

    expect(await screen.findByText('密码已重置，该用户需重新登录')).toBeInTheDocument();
    expect(log.last('/sys/user/password/reset')).toEqual({ id: alice.id, password: 'An0ther-pass' });
  });

  it('disables a user through an edit of its state', async () => {
    await openUsers();
    await rowAction('alice', '禁用');
    await user.click(await screen.findByRole('button', { name: button('确定') }));

    await waitFor(() => expect(log.last('/sys/user/edit')).toEqual({ id: alice.id, version: alice.version, nickName: alice.nickName, state: 0, roleId: 2 }));
  });
});

describe('sys/user layout', () => {
  it('keeps each user on one line: names cut with the whole text on hover, and a sideways scroll on a narrow screen', async () => {
    await openUsers();
    const row = await findRow('alice');
    for (const name of ['alice', 'alice-昵称', '前台', '上海店']) {
      const cell = within(row).getByText(name).closest('td');
      expect(cell).toHaveClass('ant-table-cell-ellipsis');
      expect(cell).toHaveAttribute('title', name);
    }
    for (const title of ['状态', '创建时间']) expect(columnWidth(title)).toMatch(/^\d+px$/);
    expect(within(row).getByText(formatTime(alice.createdAt)).closest('td')).toHaveStyle({ whiteSpace: 'nowrap' });
    expect((document.querySelector('.ant-table-content table') as HTMLElement).style.width).toBe(`${USER_TABLE_WIDTH}px`);
    // Scrolled sideways, the row's actions stay in view.
    expect(
      within(row)
        .getByRole('button', { name: button('编辑') })
        .closest('td'),
    ).toHaveClass('ant-table-cell-fix-end');
  });
});
