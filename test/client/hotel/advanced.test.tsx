import { waitFor, within } from '@testing-library/react';
import { http } from 'msw';

import { api, fail } from '../testing/handlers';
import { advancedHandlers, jdSetting } from '../testing/handlers/advanced';
import { fill, findRow, openAdd, openDialog, openScreen, rowAction, saveDialog } from '../testing/list-screen';
import { screen } from '../testing/render';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// Whole-app renders with antd dialogs take seconds on a shared, busy machine.
jest.setTimeout(120_000);

let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...advancedHandlers(log));
});

const openSettings = () => openScreen('/hotel/advanced', '京东对接');

describe('hotel/advanced', () => {
  it('lists 20 per page with the secret masked', async () => {
    await openSettings();
    expect(log.sent('/hotel/advanced/inquire')[0]).toEqual({ size: 20, current: 1, params: {} });
    const row = await findRow('京东对接');
    expect(within(row).getByText('******3f9a')).toBeInTheDocument();
    expect(within(row).getByText('未初始化')).toBeInTheDocument();
  });

  it('creates a setting, toasts 保存成功, reloads and resets the form', async () => {
    await openSettings();
    const dialog = await openAdd();
    await fill(dialog, { 配置名称: '美团对接', 接口地址: 'https://mt.example.com', 'App Key': 'mt-key', 'App Secret': 's3cret' });
    await saveDialog(dialog);

    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(log.last('/hotel/advanced/creation')).toEqual({
      name: '美团对接',
      endpointUrl: 'https://mt.example.com',
      appKey: 'mt-key',
      appSecret: 's3cret',
      state: 1,
      remark: '',
    });
    await waitFor(() => expect(log.sent('/hotel/advanced/inquire')).toHaveLength(2));
    const again = await openAdd();
    expect(within(again).getByLabelText('配置名称')).toHaveValue('');
  });

  it('edits with an empty secret (kept by the server), the id and version, and toasts 保存成功', async () => {
    await openSettings();
    const dialog = await openDialog(() => rowAction('京东对接', '编辑'));
    expect(within(dialog).getByLabelText('App Secret')).toHaveValue('');
    expect(within(dialog).getByText('留空则保留原密钥')).toBeInTheDocument();
    await fill(dialog, { 'App Key': 'key-456' });
    await saveDialog(dialog);

    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(log.last('/hotel/advanced/edit')).toEqual({
      id: jdSetting.id,
      version: jdSetting.version,
      name: jdSetting.name,
      endpointUrl: jdSetting.endpointUrl,
      appKey: 'key-456',
      appSecret: '',
      state: 1,
      remark: '',
    });
    await waitFor(() => expect(log.sent('/hotel/advanced/inquire')).toHaveLength(2));
  });

  it('initialises a setting and toasts 初始化成功', async () => {
    await openSettings();
    await rowAction('京东对接', '初始化');
    expect(await screen.findByText('初始化成功')).toBeInTheDocument();
    expect(log.last('/hotel/advanced/jd/edit')).toEqual({ id: jdSetting.id });
    await waitFor(() => expect(log.sent('/hotel/advanced/inquire')).toHaveLength(2));
  });

  it('shows the server msg naming what is missing when initialisation fails', async () => {
    server.use(http.post(api('/hotel/advanced/jd/edit'), () => fail(400, '无法初始化：缺少 App Secret')));
    await openSettings();
    await rowAction('京东对接', '初始化');
    expect(await screen.findByText('无法初始化：缺少 App Secret')).toBeInTheDocument();
    expect(screen.queryByText('初始化成功')).toBeNull();
  });
});
