/**
 * Row actions on one line: at most two links in the row and the rest under 更多 (a confirmation
 * opened there still works), long serial numbers cut with the whole number on hover, and no 操作
 * column for a role that may do nothing with the rows.
 */
import { waitFor, within } from '@testing-library/react';

import HotelDeviceScreen from '../../../src/client/features/hotel/device';
import { adminMenu } from '../testing/handlers';
import { deviceHandlers, lock101 } from '../testing/handlers/device';
import { button, filterField, findRow, rowActionLabels, user } from '../testing/list-screen';
import { renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// Whole screens with antd take seconds on a shared machine.
jest.setTimeout(120_000);

let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...deviceHandlers(log));
});

const actionsCell = (row: HTMLElement) => row.lastElementChild as HTMLElement;
const labelsIn = (element: HTMLElement) =>
  within(element)
    .queryAllByRole('button')
    .map((control) => (control.textContent ?? '').replace(/\s+/g, ''));

describe('row actions', () => {
  it('shows two actions in the row and the rest under 更多', async () => {
    renderScreen(HotelDeviceScreen, adminMenu);
    const row = await findRow('LOCK-0101');
    await waitFor(() => expect(labelsIn(actionsCell(row))).toEqual(['详情', '编辑', '更多']));
    expect(await rowActionLabels('LOCK-0101')).toEqual(['详情', '编辑', '重置密钥', '重启', '删除']);
  });

  it('keeps a confirmation opened under 更多 working', async () => {
    renderScreen(HotelDeviceScreen, adminMenu);
    const row = await findRow('LOCK-0101');
    await user.click(within(row).getByRole('button', { name: button('更多') }));
    await user.click(await screen.findByRole('button', { name: button('重置密钥') }));
    await user.click(await screen.findByRole('button', { name: button('确定') }));
    await waitFor(() => expect(log.sent('/hotel/device/key/reset')).toEqual([{ id: lock101.id }]));
  });

  it('cuts a long serial number to one line with the whole number on hover', async () => {
    renderScreen(HotelDeviceScreen, adminMenu);
    const cell = (await findRow('LOCK-0101')).querySelector('td[title="LOCK-0101"]') as HTMLElement;
    expect(cell).toHaveClass('ant-table-cell-ellipsis');
  });

  it('has no 操作 column for a role that may only list the devices', async () => {
    renderScreen(
      HotelDeviceScreen,
      adminMenu.map((menu) => (menu.element === 'hotel/device' ? { ...menu, granted: ['api_inquire'] } : menu)),
    );
    await findRow('LOCK-0101');
    expect(screen.getByText('设备名称', { selector: 'th, th *' })).toBeInTheDocument();
    expect(screen.queryByText('操作', { selector: 'th, th *' })).toBeNull();
  });
});

describe('a read-only device role', () => {
  it('is not offered the location filter, whose tree it may not read (no 没有权限 toast)', async () => {
    renderScreen(
      HotelDeviceScreen,
      adminMenu.map((menu) => (menu.element === 'hotel/device' ? { ...menu, granted: ['api_inquire'] } : menu)),
    );
    await findRow('LOCK-0101');
    const filters = document.querySelector('form.ant-form-inline') as HTMLElement;
    expect(within(filters).getByLabelText('设备名称')).toBeInTheDocument();
    expect(within(filters).queryByLabelText('位置')).toBeNull();
    expect(log.sent('/hotel/device/location/tree')).toHaveLength(0);
  });

  it('is offered it with the tree granted', async () => {
    renderScreen(
      HotelDeviceScreen,
      adminMenu.map((menu) => (menu.element === 'hotel/device' ? { ...menu, granted: ['api_inquire', 'api_locationTree'] } : menu)),
    );
    await findRow('LOCK-0101');
    expect(filterField('位置')).toBeInTheDocument();
    await waitFor(() => expect(log.sent('/hotel/device/location/tree').length).toBeGreaterThan(0));
  });
});
