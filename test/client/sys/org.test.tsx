import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';

import SysOrgScreen from '../../../src/client/features/sys/org';
import { api, ok } from '../testing/handlers';
import { NOT_EMPTY_MSG, orgHandlers, orgMenu } from '../testing/handlers/org';
import { stateEntries, sysMenu } from '../testing/handlers/sys-common';
import { button } from '../testing/list-screen';
import { findDialog, renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// antd tables and dialogs render slowly in jsdom on a CPU shared with other suites.
jest.setTimeout(120_000);

const user = userEvent.setup({ delay: null });
let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(
    ...orgHandlers(log),
    http.post(api('/sys/dict/resource/inquire'), () => ok(stateEntries)),
  );
});

const unitRow = async (name: string) => (await screen.findByText(name, { selector: 'td, td *' })).closest('tr') as HTMLElement;

async function openOrgScreen() {
  renderScreen(SysOrgScreen, [...sysMenu, orgMenu()]);
  return unitRow('上海店');
}

async function rowAction(name: string, action: string) {
  await user.click(within(await unitRow(name)).getByRole('button', { name: button(action) }));
}

describe('sys/org', () => {
  it('shows the tree as a table with the group and regions open, each unit with its kind and state', async () => {
    const row = await openOrgScreen();
    expect(within(row).getByText('酒店')).toBeInTheDocument();
    // jsdom matches no media query, so this is the phone's table: the code, sort and remark columns show from md up only.
    expect(within(row).queryByText('SH01')).toBeNull();
    expect(within(row).getByText('启用')).toBeInTheDocument();
    expect(within(await unitRow('华东区')).getByText('区域')).toBeInTheDocument();
    expect(await unitRow('杭州店')).toBeInTheDocument();
    // A hotel's departments stay folded until it is opened.
    expect(screen.queryByText('前厅部')).toBeNull();
    await user.click(within(row).getByRole('button', { name: /展开/ }));
    expect(within(await unitRow('前厅部')).getByText('部门')).toBeInTheDocument();
    // The root cannot be deleted, so it offers no 删除.
    expect(within(await unitRow('锦江集团')).queryByRole('button', { name: button('删除') })).toBeNull();
  });

  it('adds a department under a hotel: the parent and kind come preset, the new unit shows after the reload', async () => {
    await openOrgScreen();
    await rowAction('杭州店', '新增下级');
    const dialog = await findDialog('新增下级单位：杭州店');
    expect(within(dialog).getByText('杭州店', { selector: '.ant-select-content-value, .ant-select-selection-item, [title]' })).toBeInTheDocument();
    expect(within(dialog).getByText('部门')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('单位名称'), '客房部');
    await user.type(within(dialog).getByLabelText('单位编码'), 'HZ01-HK');
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));

    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(log.last('/sys/org/creation')).toEqual({ pid: 5, name: '客房部', kind: 'department', code: 'HZ01-HK', state: 1, sort: 0, remark: '' });
    // The parent opens so the new unit is seen.
    expect(await unitRow('客房部')).toBeInTheDocument();
  });

  it('edits a unit with its id, version and parent', async () => {
    await openOrgScreen();
    await rowAction('上海店', '编辑');
    const dialog = await findDialog('编辑单位：上海店');
    const name = within(dialog).getByLabelText('单位名称');
    await user.clear(name);
    await user.type(name, '上海外滩店');
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));

    await waitFor(() => expect(log.last('/sys/org/edit')).toEqual({ id: 3, version: 2, pid: 2, name: '上海外滩店', kind: 'hotel', code: 'SH01', state: 1, sort: 3, remark: '' }));
    expect(await unitRow('上海外滩店')).toBeInTheDocument();
  });

  it('edits the top unit without a parent: it stays where it is', async () => {
    await openOrgScreen();
    await rowAction('锦江集团', '编辑');
    const dialog = await findDialog('编辑单位：锦江集团');
    expect(within(dialog).queryByLabelText('上级单位')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));
    await waitFor(() => expect(log.last('/sys/org/edit')).toMatchObject({ id: 1, pid: null }));
  });

  it('shows the server reason when a unit that is not empty cannot be deleted, and keeps it', async () => {
    await openOrgScreen();
    await rowAction('上海店', '删除');
    await user.click(await screen.findByRole('button', { name: button('确定') }));

    expect(await screen.findByText(NOT_EMPTY_MSG)).toBeInTheDocument();
    expect(log.last('/sys/org/removal')).toEqual({ id: 3 });
    expect(await unitRow('上海店')).toBeInTheDocument();
  });

  it('deletes an empty unit and reloads the tree', async () => {
    await openOrgScreen();
    await rowAction('杭州店', '删除');
    await user.click(await screen.findByRole('button', { name: button('确定') }));

    expect(await screen.findByText('删除成功')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('杭州店')).toBeNull());
  });
});
