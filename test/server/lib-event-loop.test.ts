/**
 * Issue 10: a long job's pause (lib/event-loop.ts) lets what arrived meanwhile run first, including
 * what it scheduled for later in the same turn (the heartbeats' batched lookup).
 */
import { yieldToEventLoop } from '../../src/server/lib/event-loop';

describe('yieldToEventLoop', () => {
  it('resumes the job after work scheduled with setImmediate while it paused', async () => {
    const order: string[] = [];
    const paused = yieldToEventLoop().then(() => order.push('job resumed'));
    // A request read during the pause schedules its lookup: queued behind the pause's first hop.
    setImmediate(() => order.push('lookup'));
    await paused;
    expect(order).toEqual(['lookup', 'job resumed']);
  });
});
