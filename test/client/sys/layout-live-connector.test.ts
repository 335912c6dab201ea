/**
 * The live stream's connection logic on its own (features/sys/layout/live): a fake EventSource and
 * ticket source, jest's fake timers for the backoff and the coalescing interval.
 */
import { Coalescer, FLUSH_MS, type LiveBatch } from '../../../src/client/features/sys/layout/live/coalesce';
import {
  backoffDelay,
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  LiveConnector,
  type LiveStatus,
  type SourceLike,
  type StreamEvent,
} from '../../../src/client/features/sys/layout/live/connector';

/** An EventSource stand-in: the test plays the server's frames into it. */
class FakeSource implements SourceLike {
  readonly listeners = new Map<string, Array<(event: MessageEvent<string>) => void>>();
  closed = false;
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
  }
  emit(type: string, data: unknown, id = ''): void {
    for (const listener of this.listeners.get(type) ?? []) listener({ data: JSON.stringify(data), lastEventId: id } as MessageEvent<string>);
  }
  fail(): void {
    for (const listener of this.listeners.get('error') ?? []) listener({} as MessageEvent<string>);
  }
  get query(): URLSearchParams {
    return new URL(this.url, 'http://localhost').searchParams;
  }
}

function harness(options: { tickets?: Array<string | null>; random?: () => number } = {}) {
  const sources: FakeSource[] = [];
  const statuses: LiveStatus[] = [];
  const events: StreamEvent[] = [];
  let issued = 0;
  const tickets = options.tickets ?? [];
  const connector = new LiveConnector({
    ticket: () => {
      issued += 1;
      const next = tickets.length > 0 ? tickets.shift()! : `ticket-${issued}`;
      return Promise.resolve(next);
    },
    open: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    onEvent: (event) => events.push(event),
    onStatus: (status) => statuses.push(status),
    random: options.random ?? (() => 0.5),
  });
  return { connector, sources, statuses, events, issued: () => issued, last: () => sources[sources.length - 1] };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('backoff', () => {
  it('grows exponentially, jittered within [step/2, step], capped', () => {
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
      expect(backoffDelay(attempt, () => 0)).toBe(step / 2);
      expect(backoffDelay(attempt, () => 0.999999)).toBeLessThanOrEqual(step);
      expect(backoffDelay(attempt, () => 0.999999)).toBeGreaterThan(step * 0.99);
    }
    expect(backoffDelay(0, () => 0)).toBe(500);
    expect(backoffDelay(3, () => 0.5)).toBe(6_000);
    expect(backoffDelay(50, () => 1)).toBe(BACKOFF_CAP_MS);
    // Two consoles with different luck wait differently: a restart is not met all at once.
    expect(backoffDelay(4, () => 0.1)).not.toBe(backoffDelay(4, () => 0.9));
  });
});

describe('LiveConnector', () => {
  it('opens with a ticket, goes live on ready, hands on events', async () => {
    const h = harness();
    h.connector.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(h.sources).toHaveLength(1);
    expect(h.last().url).toBe('/api/events?ticket=ticket-1');
    expect(h.statuses).toEqual(['connecting']);
    h.last().emit('ready', { head: 0 });
    expect(h.statuses).toEqual(['connecting', 'live']);
    h.last().emit('device-status', { deviceIds: [3], online: 0, at: 10 }, '7');
    expect(h.events).toEqual([{ kind: 'device-status', deviceIds: [3], online: 0, at: 10 }]);
    h.connector.stop();
  });

  it('on an error closes the source and reconnects after the backoff with a new ticket, resuming after the last id', async () => {
    const h = harness({ random: () => 0 });
    h.connector.start();
    await jest.advanceTimersByTimeAsync(0);
    const first = h.last();
    first.emit('ready', { head: 4 });
    first.emit('alarm-raised', { type: 'offline', deviceIds: [1], at: 1 }, '5');
    first.emit('device-status', { deviceIds: [1], online: 0, at: 1 }, '6');
    first.fail();
    expect(first.closed).toBe(true);
    expect(h.statuses.at(-1)).toBe('reconnecting');

    // Attempt 0 waits half a second (random 0): not before.
    await jest.advanceTimersByTimeAsync(499);
    expect(h.sources).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(h.sources).toHaveLength(2);
    expect(h.issued()).toBe(2);
    expect(h.last().query.get('ticket')).toBe('ticket-2');
    expect(h.last().query.get('lastEventId')).toBe('6');

    // Broken again before ready: the wait doubles; ready resets it.
    h.last().fail();
    await jest.advanceTimersByTimeAsync(999);
    expect(h.sources).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(h.sources).toHaveLength(3);
    expect(h.last().query.get('lastEventId')).toBe('6');
    h.last().emit('ready', { head: 6 });
    expect(h.statuses.at(-1)).toBe('live');
    h.last().fail();
    await jest.advanceTimersByTimeAsync(500);
    expect(h.sources).toHaveLength(4);
    h.connector.stop();
  });

  it('resumes a first stream that broke before any event from the head it opened at', async () => {
    const h = harness({ random: () => 0 });
    h.connector.start();
    await jest.advanceTimersByTimeAsync(0);
    h.last().emit('ready', { head: 42 });
    h.last().fail();
    await jest.advanceTimersByTimeAsync(500);
    expect(h.last().query.get('lastEventId')).toBe('42');
  });

  it('retries a refused ticket with the same backoff, and stays quiet once stopped', async () => {
    const h = harness({ tickets: [null, null], random: () => 0 });
    h.connector.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(h.sources).toHaveLength(0);
    expect(h.statuses).toEqual(['connecting', 'reconnecting']);
    await jest.advanceTimersByTimeAsync(500);
    expect(h.issued()).toBe(2);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(h.issued()).toBe(3);
    expect(h.sources).toHaveLength(1);
    h.connector.stop();
    expect(h.last().closed).toBe(true);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(h.issued()).toBe(3);
  });

  it('stops for good at session-ended: the error that follows brings no reconnect', async () => {
    const h = harness();
    h.connector.start();
    await jest.advanceTimersByTimeAsync(0);
    h.last().emit('ready', { head: 1 });
    h.last().emit('session-ended', { reason: 'forced', msg: '被 admin 强制下线，请重新登录' }, '9');
    expect(h.events).toEqual([{ kind: 'session-ended', reason: 'forced', msg: '被 admin 强制下线，请重新登录' }]);
    expect(h.last().closed).toBe(true);
    h.last().fail();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(h.sources).toHaveLength(1);
    expect(h.issued()).toBe(1);
  });
});

describe('Coalescer', () => {
  it('applies the first event at once, then a burst at most once per interval, the latest status per device', async () => {
    const batches: LiveBatch[] = [];
    const coalescer = new Coalescer((batch) => batches.push(batch));
    coalescer.push({ kind: 'device-status', deviceIds: [1], online: 0, at: 1 });
    await jest.advanceTimersByTimeAsync(0);
    expect(batches).toHaveLength(1);

    // A mass outage: 2,000 events within 1.5 s.
    for (let i = 0; i < 2_000; i += 1) {
      coalescer.push({ kind: 'device-status', deviceIds: [i % 200, 1_000 + i], online: i === 1_999 ? 1 : 0, at: i });
      if (i % 400 === 0) coalescer.push({ kind: 'alarm-raised', type: 'offline', deviceIds: [i], at: i });
      await jest.advanceTimersByTimeAsync(0.75);
    }
    await jest.advanceTimersByTimeAsync(FLUSH_MS);
    // At most one batch per interval over 1.5 s, plus the first and the trailing one.
    expect(batches.length).toBeGreaterThanOrEqual(3);
    expect(batches.length).toBeLessThanOrEqual(5);
    const all = batches.slice(1);
    expect(all.reduce((sum, batch) => sum + batch.events, 0)).toBe(2_005);
    expect(all.some((batch) => batch.alarmsRaised)).toBe(true);
    // Device 199's last event said online.
    expect(all.at(-1)!.devices.get(199)).toEqual({ online: 1, at: 1_999 });
    // A batch holds one entry per device, however many events named it.
    const busiest = all.reduce((most, batch) => (batch.events > most.events ? batch : most));
    expect(busiest.events).toBeGreaterThan(400);
    expect([...busiest.devices.keys()].filter((id) => id < 200)).toHaveLength(200);
  });

  it('drops what is pending when cancelled', async () => {
    const batches: LiveBatch[] = [];
    const coalescer = new Coalescer((batch) => batches.push(batch));
    coalescer.push({ kind: 'reload' });
    coalescer.cancel();
    await jest.advanceTimersByTimeAsync(FLUSH_MS * 2);
    expect(batches).toEqual([]);
  });
});
