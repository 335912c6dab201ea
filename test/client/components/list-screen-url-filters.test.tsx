/**
 * List filters in the URL query, seen through the device screen in the whole app: a link naming
 * filters opens the list filtered (form and request), a search writes them to the URL, back and
 * forward step through the searches, and another tab's filters never leak into this one.
 */
import { act, waitFor } from '@testing-library/react';

import { advancedHandlers } from '../testing/handlers/advanced';
import { deviceHandlers } from '../testing/handlers/device';
import { fill, filterField, findRow, search } from '../testing/list-screen';
import { renderApp, screen } from '../testing/render';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

// Whole-app renders with antd take seconds on a shared, busy machine.
jest.setTimeout(120_000);

let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  server.use(...deviceHandlers(log), ...advancedHandlers(log));
});

const filters = () => document.querySelector('form.ant-form-inline') as HTMLElement;
const lastParams = () => (log.last('/hotel/device/inquire') as { params: object }).params;

describe('filters in the URL', () => {
  it('opens a link naming filters with the list filtered and the filters shown', async () => {
    await renderApp({ path: '/hotel/device?type=meter&state=1&name=%E9%97%A8%E9%94%81', signedIn: true });
    await findRow('LOCK-0101');
    expect(log.sent('/hotel/device/inquire')[0]).toEqual({ size: 20, current: 1, params: { type: 'meter', state: 1, name: '门锁' } });
    expect(filterField('设备名称')).toHaveValue('门锁');
    expect(filters()).toHaveTextContent('电表');
  });

  it('writes a search to the URL, and back and forward step through the searches', async () => {
    const { router } = await renderApp({ path: '/hotel/device', signedIn: true });
    await findRow('LOCK-0101');
    await fill(filters(), { 设备名称: '门锁' });
    await search();
    await waitFor(() => expect(router.state.location.search).toBe('?name=%E9%97%A8%E9%94%81'));
    expect(lastParams()).toEqual({ name: '门锁' });

    await fill(filters(), { 序列号: 'LOCK' });
    await search();
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('sn')).toBe('LOCK'));
    expect(lastParams()).toEqual({ name: '门锁', sn: 'LOCK' });

    await act(() => router.navigate(-1));
    await waitFor(() => expect(lastParams()).toEqual({ name: '门锁' }));
    expect(filterField('序列号')).toHaveValue('');
    expect(filterField('设备名称')).toHaveValue('门锁');

    await act(() => router.navigate(-1));
    await waitFor(() => expect(lastParams()).toEqual({}));
    expect(filterField('设备名称')).toHaveValue('');

    await act(() => router.navigate(1));
    await waitFor(() => expect(lastParams()).toEqual({ name: '门锁' }));
  });

  it('keeps a screen’s filters in its URL when its tab is shown again', async () => {
    const { router } = await renderApp({ path: '/hotel/device?sn=LOCK', signedIn: true });
    await findRow('LOCK-0101');
    await act(() => router.navigate('/hotel/advanced'));
    await screen.findByText('高级设置', { selector: '.ant-tabs-tab *' });
    expect(router.state.location.search).toBe('');
    await act(() => router.navigate('/hotel/device'));
    await waitFor(() => expect(router.state.location.search).toBe('?sn=LOCK'));
    expect(filterField('序列号')).toHaveValue('LOCK');
    expect(lastParams()).toEqual({ sn: 'LOCK' });
  });
});
