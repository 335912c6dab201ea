/**
 * The live console in the real app (features/sys/layout/live): a stand-in EventSource plays the
 * server's frames (jsdom has none, and msw's SSE support needs one); msw answers the ticket, the
 * lists and the badge at the network edge. The connector's own logic (backoff, resume,
 * coalescing) is layout-live-connector.test.ts.
 */
import { act, waitFor, within } from '@testing-library/react';
import { http } from 'msw';

import { deviceApi } from '../../../src/client/features/hotel/device/api';
import { api, ok } from '../testing/handlers';
import { activeAlarm, alarmHandlers } from '../testing/handlers/alarm';
import { deviceHandlers, lock101 } from '../testing/handlers/device';
import { findRow, openScreen, user } from '../testing/list-screen';
import { renderApp, screen } from '../testing/render';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

jest.setTimeout(60_000);

const TICKET = 't'.repeat(43);

class FakeEventSource {
  static opened: FakeEventSource[] = [];
  readonly listeners = new Map<string, Array<(event: MessageEvent<string>) => void>>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  /** The server sends a frame. */
  emit(type: string, data: unknown, id = '') {
    act(() => {
      for (const listener of this.listeners.get(type) ?? []) listener({ data: JSON.stringify(data), lastEventId: id } as MessageEvent<string>);
    });
  }
  fail() {
    act(() => {
      for (const listener of this.listeners.get('error') ?? []) listener({} as MessageEvent<string>);
    });
  }
}

let log: RequestLog;

beforeEach(() => {
  FakeEventSource.opened = [];
  Object.defineProperty(globalThis, 'EventSource', { configurable: true, writable: true, value: FakeEventSource });
  log = createRequestLog();
  server.use(
    ...deviceHandlers(log),
    http.post(api('/events/ticket'), async ({ request }) => {
      await log.record(request);
      return ok({ ticket: TICKET });
    }),
  );
});

afterEach(() => {
  Reflect.deleteProperty(globalThis, 'EventSource');
});

async function liveStream(): Promise<FakeEventSource> {
  await waitFor(() => expect(FakeEventSource.opened).toHaveLength(1));
  const [source] = FakeEventSource.opened;
  expect(source.url).toBe(`/api/events?ticket=${TICKET}`);
  source.emit('ready', { head: 3 });
  expect(await screen.findByRole('button', { name: '实时更新：实时' })).toBeInTheDocument();
  return source;
}

describe('live console', () => {
  it('a device going offline changes its row in place without reading the list again; the indicator tells a broken stream', async () => {
    await openScreen('/hotel/device', 'LOCK-0101');
    const source = await liveStream();
    const reads = log.sent('/hotel/device/inquire').length;
    expect(within(await findRow('LOCK-0101')).getByText('在线')).toBeInTheDocument();

    source.emit('device-status', { deviceIds: [lock101.id], online: 0, at: Date.now() }, '4');
    await waitFor(() => expect(within(screen.getByText('LOCK-0101').closest('tr')!).getByText('离线')).toBeInTheDocument());
    expect(log.sent('/hotel/device/inquire')).toHaveLength(reads);

    source.fail();
    expect(await screen.findByRole('button', { name: '实时更新：重连中' })).toBeInTheDocument();
    expect(source.closed).toBe(true);
  });

  it('reads a list filtered by status again instead of patching it, and reads everything on reload', async () => {
    const { store } = await openScreen('/hotel/device', 'LOCK-0101');
    const source = await liveStream();
    const onlineOnly = { size: 20, current: 1, params: { online: 1 } };
    const subscription = store.dispatch(deviceApi.endpoints.inquireDevices.initiate(onlineOnly));
    await subscription;
    const filteredReads = () => log.sent('/hotel/device/inquire').filter((body) => JSON.stringify(body) === JSON.stringify(onlineOnly)).length;
    expect(filteredReads()).toBe(1);

    source.emit('device-status', { deviceIds: [lock101.id], online: 0, at: Date.now() }, '4');
    await waitFor(() => expect(filteredReads()).toBe(2));
    const all = log.sent('/hotel/device/inquire').length;
    source.emit('reload', {}, '900');
    await waitFor(() => expect(log.sent('/hotel/device/inquire').length).toBeGreaterThanOrEqual(all + 2));
    subscription.unsubscribe();
  });

  it('session-ended: the sign-in page at once, with the reason', async () => {
    const { router } = await openScreen('/hotel/device', 'LOCK-0101');
    const source = await liveStream();
    source.emit('session-ended', { reason: 'forced', msg: '被 admin 强制下线，请重新登录' }, '5');
    expect(await screen.findByText('被 admin 强制下线，请重新登录')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sys/verify');
    expect(localStorage.getItem('token')).toBeNull();
    expect(source.closed).toBe(true);
  });

  it('a 401 naming its reason shows the reason on the sign-in page', async () => {
    server.use(http.post(api('/sys/panel/inquire'), () => Response.json({ code: 401, msg: '密码被 admin 重置，请重新登录', data: null, reason: 'passwordChanged' })));
    const { router } = await renderApp({ path: '/sys/panel', signedIn: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sys/verify'));
    await waitFor(() => expect(document.querySelector('.verify-notice')).toHaveTextContent('密码被 admin 重置，请重新登录'));
  });

  it('a new severe alarm: the badge counts it and a notification names the device, with a link to the alarms', async () => {
    const fresh = { ...activeAlarm, id: 72, deviceId: 43, deviceName: '0808 门锁', deviceSn: 'LOCK-0808', severity: 'critical' };
    let open = [activeAlarm];
    server.use(
      // The first handler that matches answers: the badge's reads before the alarm screen's fixture.
      http.post(api('/hotel/alarm/inquire'), () => ok({ records: open, current: 1, size: 10, total: open.length })),
      ...alarmHandlers(log),
    );
    const { router } = await renderApp({ path: '/sys/panel', signedIn: true });
    const source = await liveStream();
    expect(await screen.findByRole('button', { name: '未清除告警 1 条' })).toBeInTheDocument();
    // What was open already is not announced.
    expect(screen.queryByText(/告警：/)).toBeNull();

    open = [fresh, activeAlarm];
    source.emit('alarm-raised', { type: 'offline', deviceIds: [43], at: Date.now() }, '6');
    expect(await screen.findByText('严重告警：0808 门锁')).toBeInTheDocument();
    expect(screen.getByText('0808 门锁（LOCK-0808）：设备心跳超时，已离线')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: '未清除告警 2 条' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /查看告警/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/hotel/alarm'));
  });

  it('the alarm sound is off until switched on, and the choice is kept', async () => {
    await renderApp({ path: '/sys/panel', signedIn: true });
    await liveStream();
    await user.click(screen.getByRole('button', { name: '实时更新：实时' }));
    const sound = await screen.findByRole('switch');
    expect(sound).not.toBeChecked();
    await user.click(sound);
    expect(localStorage.getItem('live.alarmSound')).toBe('1');
  });
});
