/**
 * Buildings and devices in the organisation tree: a new building picks its hotel (only hotels are
 * pickable; a caller with one hotel finds it chosen) and names it in the tree; a device without a
 * location picks the hotel of hotel-wide equipment, while a located device follows its location.
 * Each reads its own screen's 可选单位 (not 组织管理's tree); without it the forms are as before.
 */
import { waitFor, within } from '@testing-library/react';
import { http } from 'msw';

import HotelLocationScreen from '../../../src/client/features/hotel/location';
import { adminMenu, api, ok } from '../testing/handlers';
import { DICT_MENU } from '../testing/handlers/list-crud';
import { deviceHandlers } from '../testing/handlers/device';
import { LOCATION_MENU_ID, locationHandlers, mainBuilding, room0803 } from '../testing/handlers/location';
import { frontDesk, orgHandlers, shanghai } from '../testing/handlers/org';
import { fill, openAdd, openScreen, pageButton, saveDialog, user } from '../testing/list-screen';
import { findDialog, renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

jest.setTimeout(120_000);

const locationMenu = { id: LOCATION_MENU_ID, pid: 10, name: '位置管理', path: '/hotel/location', element: 'hotel/location', icon: 'HomeOutlined', sort: 2, state: 1, isAuth: 1 };
let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
});

/** The open picker's options: each title and whether it may be picked. */
const pickerOptions = () =>
  waitFor(() => {
    // The tree also draws a hidden node of its own (for measuring), without a title.
    const options = Array.from(document.querySelectorAll('.ant-select-tree-treenode'))
      .map((node) => ({
        title: node.querySelector('.ant-select-tree-node-content-wrapper')?.getAttribute('title'),
        pickable: !node.classList.contains('ant-select-tree-treenode-disabled'),
      }))
      .filter((option) => option.title);
    expect(options.length).toBeGreaterThan(0);
    return options;
  });
async function chooseType(dialog: HTMLElement) {
  await user.click(within(dialog).getByLabelText('设备类型'));
  await user.click(await screen.findByTitle('门锁'));
}
const pickerOption = (title: string) => document.querySelector(`.ant-select-tree-node-content-wrapper[title="${title}"]`) as HTMLElement;

describe('hotel/location: a building belongs to a hotel', () => {
  it('picks the hotel of a new building among hotels only, and names each building hotel in the tree', async () => {
    server.use(...locationHandlers(log, [{ ...mainBuilding, orgId: shanghai.id }]), ...orgHandlers(log));
    renderScreen(HotelLocationScreen, [...adminMenu, locationMenu]);
    const building = (await screen.findByText('主楼', { selector: '.ant-tree-title span' })).closest('.ant-tree-treenode') as HTMLElement;
    expect(await within(building).findByText('上海店')).toBeInTheDocument();

    await user.click(pageButton('新增楼栋'));
    const dialog = await findDialog('新增楼栋');
    await fill(dialog, { 名称: '副楼' });
    await user.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('请选择所属酒店')).toBeInTheDocument();

    await user.click(within(dialog).getByLabelText('所属酒店'));
    expect(await pickerOptions()).toEqual([
      { title: '锦江集团', pickable: false },
      { title: '华东区', pickable: false },
      { title: '上海店', pickable: true },
      { title: '前厅部', pickable: false },
      { title: '杭州店', pickable: true },
    ]);
    await user.click(pickerOption('杭州店'));
    await user.click(within(dialog).getByRole('button', { name: /保\s*存/ }));

    await waitFor(() => expect(log.last('/hotel/location/creation')).toEqual({ parentId: 0, kind: 'building', name: '副楼', sort: 0, orgId: 5 }));
  });

  it('finds the hotel chosen for a caller whose scope holds one hotel', async () => {
    server.use(...locationHandlers(log), ...orgHandlers(log, [{ ...shanghai, pid: null }, frontDesk]));
    renderScreen(HotelLocationScreen, [...adminMenu, locationMenu]);
    await screen.findByText('主楼', { selector: '.ant-tree-title span' });
    await waitFor(() => expect(log.sent('/hotel/location/org/tree')).toHaveLength(1));
    expect(log.sent('/sys/org/tree')).toHaveLength(0);
    await user.click(pageButton('新增楼栋'));
    const dialog = await findDialog('新增楼栋');
    await fill(dialog, { 名称: '副楼' });
    await user.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(log.last('/hotel/location/creation')).toEqual({ parentId: 0, kind: 'building', name: '副楼', sort: 0, orgId: shanghai.id }));
  });
});

describe('hotel/device: the hotel of hotel-wide equipment', () => {
  beforeEach(() => {
    server.use(...deviceHandlers(log), ...orgHandlers(log));
    // Used after the device handlers, so it answers the authority before theirs: 设备管理 and no 组织管理.
    server.use(http.get(api('/sys/menu/authority'), () => ok([...adminMenu, DICT_MENU])));
  });

  it('asks for the hotel of a device without a location and sends it', async () => {
    await openScreen('/hotel/device', 'LOCK-0101');
    const dialog = await openAdd();
    await fill(dialog, { 设备名称: '大堂网关', 序列号: 'GW-0001' });
    await chooseType(dialog);
    await saveDialog(dialog);
    expect(await within(dialog).findByText('未选位置时请选择所属酒店')).toBeInTheDocument();
    expect(log.sent('/hotel/device/creation')).toHaveLength(0);

    await user.click(within(dialog).getByLabelText('所属酒店'));
    await user.click(await waitFor(() => pickerOption('上海店')));
    await saveDialog(dialog);
    await waitFor(() => expect(log.last('/hotel/device/creation')).toMatchObject({ sn: 'GW-0001', orgId: shanghai.id }));
    // No location: the field was never touched and the contract's default (null) applies.
    expect(log.last('/hotel/device/creation')).not.toHaveProperty('locationId');
    // The hotels are the device screen's own 可选单位.
    expect(log.sent('/hotel/device/org/tree').length).toBeGreaterThan(0);
    expect(log.sent('/sys/org/tree')).toHaveLength(0);
  });

  it('lets a located device follow its location: the picker is off and no hotel is sent', async () => {
    await openScreen('/hotel/device', 'LOCK-0101');
    const dialog = await openAdd();
    await fill(dialog, { 设备名称: '0803 门锁', 序列号: 'LOCK-0803' });
    await chooseType(dialog);
    await user.click(within(dialog).getByLabelText('所属酒店'));
    await user.click(await waitFor(() => pickerOption('杭州店')));
    await user.type(within(dialog).getByLabelText('位置'), '0803');
    await user.click(await screen.findByTitle('0803'));
    await waitFor(() => expect(within(dialog).getByLabelText('所属酒店')).toBeDisabled());
    await saveDialog(dialog);
    await waitFor(() => expect(log.last('/hotel/device/creation')).toMatchObject({ sn: 'LOCK-0803', locationId: room0803.id, orgId: null }));
  });
});
