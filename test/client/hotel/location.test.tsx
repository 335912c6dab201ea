import { waitFor, within } from '@testing-library/react';
import { http } from 'msw';

import HotelLocationScreen from '../../../src/client/features/hotel/location';
import { adminMenu, api, fail } from '../testing/handlers';
import { floor8, LOCATION_MENU_ID, locationHandlers, mainBuilding } from '../testing/handlers/location';
import { withoutUnitPicker } from '../testing/handlers/pickers';
import { button, fill, saveDialog, user } from '../testing/list-screen';
import { findDialog, renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

jest.setTimeout(120_000);

/** A building's hotel is hotel-org.test's. */
const menu = withoutUnitPicker([
  ...adminMenu,
  { id: LOCATION_MENU_ID, pid: 10, name: '位置管理', path: '/hotel/location', element: 'hotel/location', icon: 'HomeOutlined', sort: 2, state: 1, isAuth: 1 },
]);
let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...locationHandlers(log));
});

/** The tree node showing `name` (its title holds the node's actions). */
async function findNode(name: string): Promise<HTMLElement> {
  const label = await screen.findByText(name, { selector: '.ant-tree-title span' });
  return label.closest('.ant-tree-treenode') as HTMLElement;
}

async function nodeAction(name: string, action: string) {
  await user.click(within(await findNode(name)).getByRole('button', { name: button(action) }));
}

const open = async () => {
  renderScreen(HotelLocationScreen, menu);
  await findNode('8F');
};

describe('hotel/location', () => {
  it('shows buildings open and their floors, rooms folded', async () => {
    await open();
    expect(within(await findNode('主楼')).getByText('楼栋')).toBeInTheDocument();
    expect(within(await findNode('8F')).getByText('楼层')).toBeInTheDocument();
    expect(screen.queryByText('0803')).toBeNull();
  });

  it('creates a building at the top', async () => {
    await open();
    await user.click(screen.getByRole('button', { name: button('新增楼栋') }));
    const dialog = await findDialog('新增楼栋');
    await fill(dialog, { 名称: '副楼', 排序: '2' });
    await saveDialog(dialog);

    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(log.last('/hotel/location/creation')).toEqual({ parentId: 0, kind: 'building', name: '副楼', sort: 2 });
    expect(await findNode('副楼')).toBeInTheDocument();
  });

  it('creates a floor under a building', async () => {
    await open();
    await nodeAction('主楼', '新增楼层');
    const dialog = await findDialog('新增楼层：主楼');
    await fill(dialog, { 名称: '9F', 排序: '9' });
    await saveDialog(dialog);

    expect(await findNode('9F')).toBeInTheDocument();
    expect(log.last('/hotel/location/creation')).toEqual({ parentId: mainBuilding.id, kind: 'floor', name: '9F', sort: 9 });
  });

  it('bulk-creates rooms on a floor and shows what was created and skipped', async () => {
    await open();
    await nodeAction('8F', '批量创建房间');
    const dialog = await findDialog('批量创建房间：8F');
    await fill(dialog, { 开始房间号: '0801', 结束房间号: '0805' });
    await user.click(within(dialog).getByRole('button', { name: button('创建') }));

    expect(await within(dialog).findByText('已创建 3 个房间，跳过已存在的 2 个')).toBeInTheDocument();
    expect(log.last('/hotel/location/rooms/creation')).toEqual({ floorId: floor8.id, from: '0801', to: '0805' });
    // The floor unfolds to show its rooms.
    expect(await findNode('0804')).toBeInTheDocument();
  });

  it('refuses a range with letters before sending it', async () => {
    await open();
    await nodeAction('8F', '批量创建房间');
    const dialog = await findDialog('批量创建房间：8F');
    await fill(dialog, { 开始房间号: '08A1', 结束房间号: '0805' });
    await user.click(within(dialog).getByRole('button', { name: button('创建') }));
    expect(await within(dialog).findByText('房间号只能包含数字，最多 8 位')).toBeInTheDocument();
    expect(log.sent('/hotel/location/rooms/creation')).toHaveLength(0);
  });

  it('edits a name and sort with the version', async () => {
    await open();
    await nodeAction('8F', '编辑');
    const dialog = await findDialog('编辑楼层');
    expect(within(dialog).getByLabelText('名称')).toHaveValue('8F');
    await fill(dialog, { 名称: '8 层' });
    await saveDialog(dialog);

    expect(await findNode('8 层')).toBeInTheDocument();
    expect(log.last('/hotel/location/edit')).toEqual({ id: floor8.id, version: floor8.version, name: '8 层', sort: 8 });
  });

  it('deletes after confirmation and shows the server’s refusal', async () => {
    server.use(http.post(api('/hotel/location/removal'), () => fail(409, '楼层「8F」下还有下级位置，请先删除下级位置')));
    await open();
    await nodeAction('8F', '删除');
    await user.click(await screen.findByRole('button', { name: button('确定') }));
    expect(await screen.findByText('楼层「8F」下还有下级位置，请先删除下级位置')).toBeInTheDocument();
    expect(await findNode('8F')).toBeInTheDocument();
  });

  it('offers no action the role does not hold', async () => {
    renderScreen(HotelLocationScreen, [...menu.slice(0, -1), { ...menu[menu.length - 1], granted: ['api_inquire', 'api_edit'] }]);
    const floor = await findNode('8F');
    expect(within(floor).getByRole('button', { name: button('编辑') })).toBeInTheDocument();
    expect(within(floor).queryByRole('button', { name: button('删除') })).toBeNull();
    expect(within(floor).queryByRole('button', { name: button('批量创建房间') })).toBeNull();
    expect(screen.queryByRole('button', { name: button('新增楼栋') })).toBeNull();
    await waitFor(() => expect(log.sent('/hotel/location/tree')).toHaveLength(1));
  });
});
