/** The shared list-screen block, seen through the device screen (the screen with most dictionary fields). */
import { waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { api, fail, ok } from '../testing/handlers';
import { deviceHandlers, lock101 } from '../testing/handlers/device';
import { adminWithoutUnitPicker } from '../testing/handlers/pickers';
import { fill, filterField, findRow, openAdd, openScreen, saveDialog, search, user } from '../testing/list-screen';
import { screen } from '../testing/render';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// Whole-app renders with antd dialogs take seconds on a shared, busy machine.
jest.setTimeout(120_000);

let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...deviceHandlers(log));
  // Used after, so it answers the authority before theirs: no 可选单位 (the hotel picker is hotel-org.test's).
  server.use(adminWithoutUnitPicker());
});

const openDevices = () => openScreen('/hotel/device', 'LOCK-0101');

describe('list-screen block', () => {
  it('sends the page size the user picks as size, back on page 1', async () => {
    await openDevices();
    await user.click(screen.getByTitle('2'));
    // One page on: with the id of the last row shown (see the next test).
    await waitFor(() => expect(log.last('/hotel/device/inquire')).toEqual({ size: 20, current: 2, after: lock101.id, params: {} }));

    await user.click(within(document.querySelector('.ant-pagination-options') as HTMLElement).getByRole('combobox'));
    await user.click(await screen.findByTitle('50 条/页'));
    await waitFor(() => expect(log.last('/hotel/device/inquire')).toEqual({ size: 50, current: 1, params: {} }));
  });

  it('shows a counted-to-the-cap total as "10,000+" and always offers the next page', async () => {
    server.use(
      http.post(api('/hotel/device/inquire'), async ({ request }) => {
        const { current, size } = (await log.record(request)) as { current: number; size: number };
        return ok({ records: [lock101], current, size, total: 10_000, totalIsLowerBound: true });
      }),
    );
    await openDevices();
    expect(screen.getByText('共 10,000+ 条')).toBeInTheDocument();
    // 500 pages of 20 are known; a lower bound leaves one more to ask for.
    expect(screen.getByTitle('501')).toBeInTheDocument();
    await user.click(screen.getByTitle('501'));
    await waitFor(() => expect(log.last('/hotel/device/inquire')).toMatchObject({ current: 501 }));
    expect(log.last('/hotel/device/inquire')).not.toHaveProperty('after');
  });

  it('steps one page on from the last row shown (after), and jumps, goes back or filters by page number alone', async () => {
    const lastRowOfPage = (current: number) => ({ ...lock101, id: 1000 + current, sn: `LOCK-P${current}` });
    server.use(
      http.post(api('/hotel/device/inquire'), async ({ request }) => {
        const { current, size } = (await log.record(request)) as { current: number; size: number };
        return ok({ records: [lock101, lastRowOfPage(current)], current, size, total: 10_000, totalIsLowerBound: true });
      }),
    );
    await openDevices();
    const sent = () => log.last('/hotel/device/inquire') as { current: number; after?: number };
    await user.click(screen.getByTitle('下一页'));
    await waitFor(() => expect(sent()).toMatchObject({ current: 2, after: 1001 }));
    await findRow('LOCK-P2');
    await user.click(screen.getByTitle('3'));
    await waitFor(() => expect(sent()).toMatchObject({ current: 3, after: 1002 }));
    await findRow('LOCK-P3');
    await user.click(screen.getByTitle('5'));
    await waitFor(() => expect(sent().current).toBe(5));
    expect(sent()).not.toHaveProperty('after');
    await findRow('LOCK-P5');
    await user.click(screen.getByTitle('上一页'));
    await waitFor(() => expect(sent().current).toBe(4));
    expect(sent()).not.toHaveProperty('after');
    await findRow('LOCK-P4');
    await search();
    await waitFor(() => expect(sent().current).toBe(1));
    expect(sent()).not.toHaveProperty('after');
  });

  it('shows an exact total as it is', async () => {
    server.use(http.post(api('/hotel/device/inquire'), () => ok({ records: [lock101], current: 1, size: 20, total: 10_000, totalIsLowerBound: false })));
    await openDevices();
    expect(screen.getByText('共 10000 条')).toBeInTheDocument();
    expect(screen.getByTitle('500')).toBeInTheDocument();
    expect(screen.queryByTitle('501')).not.toBeInTheDocument();
  });

  it('reads the list again when 查询 is pressed with the filters already shown', async () => {
    await openDevices();
    const before = log.sent('/hotel/device/inquire').length;
    await search();
    await waitFor(() => expect(log.sent('/hotel/device/inquire')).toHaveLength(before + 1));
    await search();
    await waitFor(() => expect(log.sent('/hotel/device/inquire')).toHaveLength(before + 2));
  });

  it('renders dictionary labels as text and offers dictionary options in the filters', async () => {
    await openDevices();
    const row = await findRow('LOCK-0101');
    expect(within(row).getByText('门锁')).toBeInTheDocument();
    expect(within(row).queryByText('lock')).toBeNull();
    expect(log.last('/sys/dict/resource/inquire')).toEqual({ menuId: 11 });

    await user.click(filterField('设备类型'));
    await user.click(await screen.findByTitle('电表'));
    await search();
    await waitFor(() => expect(log.last('/hotel/device/inquire')).toEqual({ size: 20, current: 1, params: { type: 'meter' } }));
  });

  it('keeps dictionary labels on one line, their column titles too', async () => {
    await openDevices();
    const row = await findRow('LOCK-0101');
    expect(within(row).getByText('门锁').closest('td')).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(screen.getByText('设备类型', { selector: 'th, th *' }).closest('th')).toHaveStyle({ whiteSpace: 'nowrap' });
  });

  it('shows 菜单数据字典查询失败 when the dictionary fails and still lists raw values', async () => {
    server.use(http.post(api('/sys/dict/resource/inquire'), () => fail(500, '服务器内部错误')));
    await openDevices();
    expect(await screen.findByText('菜单数据字典查询失败')).toBeInTheDocument();
    const row = await findRow('LOCK-0101');
    expect(within(row).getByText('lock')).toBeInTheDocument();
  });
});

describe('field errors', () => {
  const nameItem = (dialog: HTMLElement) => within(dialog).getByLabelText('设备名称').closest('.ant-form-item') as HTMLElement;

  it('shows a refused field’s message under that field, and keeps the dialog open', async () => {
    const msg = '设备名称格式不正确：不能以空格开头或结尾';
    server.use(http.post(api('/hotel/device/creation'), () => HttpResponse.json({ code: 400, msg, data: null, errors: [{ field: 'name', msg }] })));
    await openDevices();
    const dialog = await openAdd();
    await fill(dialog, { 设备名称: 'x 门锁', 序列号: 'LOCK-0909' });
    await user.click(within(dialog).getByLabelText('设备类型'));
    await user.click(await screen.findByTitle('门锁'));
    await saveDialog(dialog);
    await waitFor(() => expect(within(nameItem(dialog)).getByText(msg)).toBeInTheDocument());
    expect(within(dialog).getByLabelText('设备名称')).toHaveValue('x 门锁');
  });

  it('refuses a name of blanks only before sending', async () => {
    await openDevices();
    const dialog = await openAdd();
    await fill(dialog, { 设备名称: '   ', 序列号: 'LOCK-0909' });
    await saveDialog(dialog);
    expect(await within(nameItem(dialog)).findByText('请输入设备名称')).toBeInTheDocument();
    expect(log.sent('/hotel/device/creation')).toHaveLength(0);
  });
});
