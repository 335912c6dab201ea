/**
 * The role form's data scope: 指定单位 shows the caller's unit tree to tick, strictly (a ticked unit
 * brings its subtree, so ticking a hotel leaves its departments alone), and sends the ticked units
 * as scopeOrgIds; the other scopes send none.
 */
import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';

import SysRoleScreen from '../../../src/client/features/sys/role';
import { api, ok } from '../testing/handlers';
import { east, frontDesk, orgHandlers, orgMenu, shanghai } from '../testing/handlers/org';
import { deskRole, roleHandlers } from '../testing/handlers/role';
import { paged, sysMenu } from '../testing/handlers/sys-common';
import { button } from '../testing/list-screen';
import { renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

jest.setTimeout(120_000);

const user = userEvent.setup({ delay: null });
let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...roleHandlers(log), ...orgHandlers(log));
});

/** A unit's node in the dialog's tree, and whether its box is ticked. */
const unitNode = (dialog: HTMLElement, name: string) => within(dialog).getByText(name).closest('.ant-tree-treenode') as HTMLElement;
const ticked = (node: HTMLElement) => node.querySelector('.ant-tree-checkbox')?.classList.contains('ant-tree-checkbox-checked');
const tick = (node: HTMLElement) => user.click(node.querySelector('.ant-tree-checkbox') as HTMLElement);

async function editDesk() {
  renderScreen(SysRoleScreen, [...sysMenu, orgMenu()]);
  const row = await screen.findByRole('row', { name: /前台/ });
  await user.click(within(row).getByRole('button', { name: button('编辑') }));
  return screen.findByRole('dialog');
}

describe('sys/role data scope 指定单位', () => {
  it('ticks units strictly in the tree, explains the subtree, and sends them as scopeOrgIds', async () => {
    const dialog = await editDesk();
    expect(within(dialog).queryByText('指定单位')).toBeNull();
    await user.click(within(dialog).getByLabelText('数据范围'));
    await user.click(await screen.findByTitle('指定单位'));

    expect(await within(dialog).findByText(/勾选的每个单位都包含它的全部下级单位/)).toBeInTheDocument();
    const hotel = await waitFor(() => unitNode(dialog, '上海店'));
    await tick(hotel);
    expect(ticked(unitNode(dialog, '上海店'))).toBe(true);
    // Strict: the hotel's department and its region keep their own state.
    expect(ticked(unitNode(dialog, '前厅部'))).toBe(false);
    expect(ticked(unitNode(dialog, '华东区'))).toBe(false);
    await tick(unitNode(dialog, '杭州店'));
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));

    await waitFor(() =>
      expect(log.last('/sys/role/edit')).toEqual({
        id: deskRole.id,
        version: deskRole.version,
        name: '前台',
        remark: '',
        state: 1,
        dataScope: 'custom',
        scopeOrgIds: [shanghai.id, 5],
      }),
    );
  });

  it('shows a custom role with its units ticked and refuses to save it with none', async () => {
    const custom = { ...deskRole, dataScope: 'custom', scopeOrgIds: [east.id, frontDesk.id] };
    server.use(http.post(api('/sys/role/inquire'), () => ok(paged([custom]))));
    const dialog = await editDesk();
    await waitFor(() => expect(ticked(unitNode(dialog, '华东区'))).toBe(true));
    expect(ticked(unitNode(dialog, '前厅部'))).toBe(true);
    expect(ticked(unitNode(dialog, '上海店'))).toBe(false);
    expect(screen.getByText('指定单位（2 个）')).toBeInTheDocument();

    await tick(unitNode(dialog, '华东区'));
    await tick(unitNode(dialog, '前厅部'));
    await user.click(within(dialog).getByRole('button', { name: button('保存') }));
    expect(await within(dialog).findByText('请至少勾选一个单位')).toBeInTheDocument();
    expect(log.sent('/sys/role/edit')).toHaveLength(0);
  });
});
