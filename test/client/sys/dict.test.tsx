import { waitFor, within } from '@testing-library/react';
import { http } from 'msw';

import { api, fail } from '../testing/handlers';
import { bindable, dictHandlers, lockType } from '../testing/handlers/dict';
import { button, fill, filterField, openAdd, openDialog, openScreen, rowAction, saveDialog, search, user } from '../testing/list-screen';
import { screen } from '../testing/render';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// Whole-app renders with antd dialogs take seconds on a shared, busy machine.
jest.setTimeout(120_000);

let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...dictHandlers(log));
});

const openDicts = () => openScreen('/sys/dict', 'device_type');

describe('sys/dict', () => {
  it('lists 20 per page and sends the filters as params', async () => {
    await openDicts();
    expect(log.sent('/sys/dict/inquire')[0]).toEqual({ size: 20, current: 1, params: {} });
    await user.type(filterField('字典编码'), 'device_type');
    await search();
    await waitFor(() => expect(log.last('/sys/dict/inquire')).toEqual({ size: 20, current: 1, params: { code: 'device_type' } }));
  });

  it('creates an entry, toasts the server msg, reloads the list and the menu dictionaries, resets the form', async () => {
    await openDicts();
    const dictQueries = log.sent('/sys/dict/resource/inquire').length;
    const dialog = await openAdd();
    await fill(dialog, { 字典编码: 'device_type', 名称: '电表', 值: 'meter' });
    await saveDialog(dialog);

    expect(await screen.findByText('字典已保存')).toBeInTheDocument();
    expect(log.last('/sys/dict/creation')).toEqual({ code: 'device_type', label: '电表', value: 'meter', sort: 0, state: 1, remark: '' });
    await waitFor(() => expect(log.sent('/sys/dict/inquire')).toHaveLength(2));
    // The screen's own menu dictionary is refetched: labels change without a page reload.
    await waitFor(() => expect(log.sent('/sys/dict/resource/inquire').length).toBeGreaterThan(dictQueries));
    const again = await openAdd();
    expect(within(again).getByLabelText('名称')).toHaveValue('');
  });

  it('edits with the id and version and reloads', async () => {
    await openDicts();
    const dialog = await openDialog(() => rowAction('device_type', '编辑'));
    await fill(dialog, { 名称: '智能门锁' });
    await saveDialog(dialog);

    expect(await screen.findByText('字典已保存')).toBeInTheDocument();
    expect(log.last('/sys/dict/edit')).toEqual({
      id: lockType.id,
      version: lockType.version,
      code: 'device_type',
      label: '智能门锁',
      value: 'lock',
      sort: 1,
      state: 1,
      remark: '',
    });
    await waitFor(() => expect(log.sent('/sys/dict/inquire')).toHaveLength(2));
  });

  it('shows the server msg of a refused save', async () => {
    server.use(http.post(api('/sys/dict/creation'), () => fail(409, '字典“device_type”中已有值“lock”')));
    await openDicts();
    const dialog = await openAdd();
    await fill(dialog, { 字典编码: 'device_type', 名称: '门锁', 值: 'lock' });
    await saveDialog(dialog);
    expect(await screen.findByText('字典“device_type”中已有值“lock”')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeVisible();
  });

  it('lists bindable resources for the entry and binds and unbinds them with the server msg', async () => {
    await openDicts();
    const dialog = await openDialog(() => rowAction('device_type', '绑定资源'));
    const typeRow = (await within(dialog).findByText(bindable[0].name)).closest('tr') as HTMLElement;
    expect(log.last('/sys/resource/inquires')).toEqual({ size: 20, current: 1, params: { dictId: lockType.id } });

    await user.click(within(typeRow).getByRole('button', { name: button('绑定') }));
    expect(await screen.findByText('已绑定')).toBeInTheDocument();
    expect(log.last('/sys/dict/bind')).toEqual({ resourceId: bindable[0].id, dictId: lockType.id });
    await waitFor(() => expect(log.sent('/sys/resource/inquires')).toHaveLength(2));

    const stateRow = within(dialog).getByText(bindable[1].name).closest('tr') as HTMLElement;
    await user.click(within(stateRow).getByRole('button', { name: button('解绑') }));
    expect(await screen.findByText('已解绑')).toBeInTheDocument();
    expect(log.last('/sys/dict/unbind')).toEqual({ resourceId: bindable[1].id, dictId: lockType.id });
  });
});
