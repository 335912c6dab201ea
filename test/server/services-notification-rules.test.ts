/**
 * Issue 28: the rules the delivery engine decides by, without a database: the shared sliding
 * window (at most `count` sends in any `windowMs`, several windows at once, a vendor's pause) and
 * the retry backoff (exponential, full jitter, capped).
 */
import { decide, type RateState } from '../../src/server/services/notification/rate-limit';
import { DeliveryPacer, LOOK_MS, RECENT_ROUNDS, restAfter } from '../../src/server/services/notification/pacing';
import { retryDelay } from '../../src/server/services/notification/worker';
import { loadConfig } from '../../src/server/config';

const empty: RateState = { recent: [], pausedUntil: 0 };

/** Sends as many as `decide` grants at `now`, answering the state and the first refusal. */
function sendAll(windows: Parameters<typeof decide>[0], state: RateState, now: number, tries: number) {
  let current = state;
  for (let i = 0; i < tries; i += 1) {
    const decision = decide(windows, current, now);
    if (!decision.granted) return { state: current, granted: i, freeAt: decision.freeAt };
    current = decision.state;
  }
  return { state: current, granted: tries, freeAt: null };
}

describe('the sliding window', () => {
  const minute = [{ count: 20, windowMs: 60_000 }];

  it('grants 20 in a minute, then frees a send when the oldest leaves the window', () => {
    let state = empty;
    for (let second = 0; second < 20; second += 1) {
      const decision = decide(minute, state, 1_000_000 + second * 1000);
      expect(decision.granted).toBe(true);
      if (decision.granted) state = decision.state;
    }
    expect(decide(minute, state, 1_000_000 + 59_999)).toEqual({ granted: false, freeAt: 1_060_000 });
    expect(decide(minute, state, 1_060_000).granted).toBe(true);
  });

  it('never lets more than the count through in any window (unlike a bucket refilling meanwhile)', () => {
    const first = sendAll(minute, empty, 0, 30);
    expect(first.granted).toBe(20);
    // Half a minute on, a bucket of 20/min would have refilled ten; the window has not moved.
    expect(decide(minute, first.state, 30_000)).toEqual({ granted: false, freeAt: 60_000 });
  });

  it('applies several windows together (Feishu: 100 a minute and 5 a second)', () => {
    const feishu = [
      { count: 100, windowMs: 60_000 },
      { count: 5, windowMs: 1_000 },
    ];
    const burst = sendAll(feishu, empty, 0, 10);
    expect(burst).toMatchObject({ granted: 5, freeAt: 1000 });
    expect(sendAll(feishu, burst.state, 1000, 10)).toMatchObject({ granted: 5, freeAt: 2000 });
  });

  it('keeps a vendor’s pause, with or without windows of its own', () => {
    expect(decide(minute, { recent: [], pausedUntil: 600_000 }, 1000)).toEqual({ granted: false, freeAt: 600_000 });
    expect(decide([], { recent: [], pausedUntil: 600_000 }, 1000)).toEqual({ granted: false, freeAt: 600_000 });
    expect(decide([], { recent: [], pausedUntil: 600_000 }, 600_000).granted).toBe(true);
  });

  it('keeps only as many send times as the widest count', () => {
    let state = empty;
    for (let second = 0; second < 20; second += 1) {
      const decision = decide(minute, state, second * 1000);
      if (decision.granted) state = decision.state;
    }
    const later = decide(minute, state, 60_000);
    expect(later.granted && later.state.recent).toEqual([...Array.from({ length: 19 }, (_, i) => (i + 1) * 1000), 60_000]);
  });
});

describe('retry backoff', () => {
  const config = { retryBaseMs: 10_000, retryMaxMs: 600_000 };

  it('waits up to base × 2^(attempt − 1), capped, anywhere from none to the ceiling (full jitter)', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelay(attempt, config, () => 0.999999))).toEqual([9999, 19999, 39999, 79999]);
    expect(retryDelay(10, config, () => 0.999999)).toBe(599_999);
    expect(retryDelay(3, config, () => 0)).toBe(0);
    expect(retryDelay(3, config, () => 0.5)).toBe(20_000);
  });
});

describe('delivery pacing', () => {
  it('rests after a full round so that delivery takes its share of a busy process, at most 5 s', () => {
    expect(loadConfig({}).notify.deliveryShare).toBe(0.1);
    expect(loadConfig({ NOTIFY_DELIVERY_SHARE_PERCENT: '25' }).notify.deliveryShare).toBe(0.25);
    // A 100 ms round at a 10 % share leaves the next 900 ms to the rest of the process.
    expect(restAfter(100, 0.1)).toBeCloseTo(900);
    expect(restAfter(100, 0.5)).toBeCloseTo(100);
    expect(restAfter(1000, 0.1)).toBe(5000);
    expect(restAfter(100, 1)).toBe(0);
  });

  const full = { alarms: 200, messages: 50 };
  const sends = (sendMs: number) => ({ expanded: 0, expandMs: 0, taken: 50, sendMs });
  const busy = 1;

  it('only looks (20 ms) while the rest of the process was idle or not yet seen', () => {
    const pacer = new DeliveryPacer(0.1, full);
    expect(pacer.restAfterRound(sends(50), null)).toBe(LOOK_MS);
    expect(pacer.restAfterRound(sends(50), 0.05)).toBe(LOOK_MS);
    // 50 messages at 1 ms each at a 10 % share.
    expect(pacer.restAfterRound(sends(50), busy)).toBeCloseTo(450);
  });

  it('prices a round of a busy process at the fastest recent one (the work it let run is not its own)', () => {
    const pacer = new DeliveryPacer(0.1, full);
    pacer.restAfterRound(sends(50), busy);
    // A slower round that let heartbeats run meanwhile still counts as 1 ms a message.
    expect(pacer.restAfterRound(sends(200), busy)).toBeCloseTo(450);
    // Alarms expanded and messages sent add up: 200 alarms at 0.5 ms and 50 messages at 1 ms.
    expect(pacer.restAfterRound({ expanded: 200, expandMs: 100, taken: 50, sendMs: 60 }, busy)).toBeCloseTo(((100 + 50) * 0.9) / 0.1);
  });

  it('forgets cheaper rounds of earlier work: the dearer messages of a storm are priced at their own cost', () => {
    const pacer = new DeliveryPacer(0.1, full);
    // Bare messages of an idle moment: 0.2 ms each.
    for (let i = 0; i < 10; i += 1) pacer.restAfterRound(sends(10), 0);
    // The storm's: 1 ms each. Priced at 0.2 ms, delivery would take five times its share.
    let rest = 0;
    for (let i = 0; i < RECENT_ROUNDS; i += 1) rest = pacer.restAfterRound(sends(50), busy);
    expect(rest).toBeCloseTo(450);
  });
});
