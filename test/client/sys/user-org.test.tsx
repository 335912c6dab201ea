/**
 * The user screen with the organisation tree: the tree beside the list narrows it to a unit and its
 * subtree, a new user starts in the selected unit, and the form's unit picker offers exactly the
 * units the server's tree answers (the caller's scope). Both read the user screen's own 可选单位
 * (/sys/user/org/tree), never 组织管理's tree; without that grant there is no tree, no request for
 * it and no picker.
 */
import { waitFor, within } from '@testing-library/react';
import { http } from 'msw';

import { adminMenu, api, ok } from '../testing/handlers';
import { DICT_MENU } from '../testing/handlers/list-crud';
import { frontDesk, orgHandlers, shanghai } from '../testing/handlers/org';
import { withoutUnitPicker } from '../testing/handlers/pickers';
import { userHandlers } from '../testing/handlers/user';
import { fill, findRow, openAdd, openScreen, saveDialog, user } from '../testing/list-screen';
import { screen } from '../testing/render';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// Whole-app renders with antd dialogs take seconds on a shared, busy machine.
jest.setTimeout(120_000);

let log: RequestLog;

/** 用户管理's list, 新增 and 可选单位, and no other menu: not 组织管理. */
const USER_SCREEN_ONLY = adminMenu
  .filter((entry) => entry.element === 'sys/user' || entry.element === '')
  .map((entry) => (entry.element === '' ? entry : { ...entry, granted: ['api_inquire', 'api_creation', 'api_orgTree'] }));
const withMenu = (menu: typeof adminMenu) => server.use(http.get(api('/sys/menu/authority'), () => ok(menu)));

beforeEach(() => {
  log = createRequestLog();
  server.use(...userHandlers(log));
});

const panel = async () => (await screen.findByText('组织机构')).closest('.org-tree-panel') as HTMLElement;
const treeNode = async (name: string) => within(await panel()).findByTitle(name);

describe('sys/user with the organisation tree', () => {
  it('narrows the list to the unit selected in the tree and its subtree, from page 1, and shows all again', async () => {
    server.use(...orgHandlers(log));
    await openScreen('/sys/user', 'alice');
    expect(within(await findRow('alice')).getByText('上海店')).toBeInTheDocument();
    await treeNode('锦江集团');

    await user.click(screen.getByTitle('2', { exact: true }));
    await waitFor(() => expect(log.last('/sys/user/inquire')).toMatchObject({ current: 2 }));

    await user.click(await treeNode('上海店'));
    await waitFor(() => expect(log.last('/sys/user/inquire')).toEqual({ size: 20, current: 1, params: { orgId: shanghai.id } }));

    await user.click(await treeNode('上海店'));
    await waitFor(() => expect(log.last('/sys/user/inquire')).toEqual({ size: 20, current: 1, params: {} }));
  });

  it('starts a new user in the selected unit; the picker offers the units of the caller scope only', async () => {
    // A hotel manager's tree: their hotel at the top, its department under it.
    server.use(...orgHandlers(log, [{ ...shanghai, pid: null }, frontDesk]));
    withMenu(USER_SCREEN_ONLY);
    await openScreen('/sys/user', 'alice');
    await user.click(await treeNode('上海店'));
    await waitFor(() => expect(log.last('/sys/user/inquire')).toMatchObject({ params: { orgId: shanghai.id } }));

    const dialog = await openAdd();
    expect(within(dialog).getByTitle('上海店')).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText('所属单位'));
    const offered = await waitFor(() => {
      const titles = Array.from(document.querySelectorAll('.ant-select-tree-node-content-wrapper')).map((node) => node.getAttribute('title'));
      expect(titles.length).toBeGreaterThan(0);
      return titles;
    });
    expect(offered.sort()).toEqual(['上海店', '前厅部'].sort());
    // The picker's option, not the tree beside the list.
    await user.click(document.querySelector('.ant-select-tree-node-content-wrapper[title="前厅部"]') as HTMLElement);
    await fill(dialog, { 用户名: 'carol', 昵称: '卡罗尔', 密码: 'Str0ng-pass' });
    await saveDialog(dialog);

    expect(await screen.findByText('账号添加成功：carol')).toBeInTheDocument();
    expect(log.last('/sys/user/creation')).toEqual({ userName: 'carol', nickName: '卡罗尔', password: 'Str0ng-pass', state: 1, roleId: null, orgId: frontDesk.id });
    // The tree and the picker read the user screen's own units, with 组织管理 not granted at all.
    expect(log.sent('/sys/user/org/tree').length).toBeGreaterThan(0);
    expect(log.sent('/sys/org/tree')).toHaveLength(0);
  });

  it('without the tree grant shows no tree and no picker, and never asks for the tree', async () => {
    server.use(...orgHandlers(log));
    withMenu(withoutUnitPicker([...adminMenu, DICT_MENU]));
    await openScreen('/sys/user', 'alice');
    const dialog = await openAdd();
    expect(within(dialog).queryByLabelText('所属单位')).toBeNull();
    expect(screen.queryByText('组织机构')).toBeNull();
    expect(log.sent('/sys/user/org/tree')).toHaveLength(0);
    expect(log.sent('/sys/org/tree')).toHaveLength(0);
  });
});
