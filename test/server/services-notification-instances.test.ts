/**
 * Issue 28: several instances on one PostgreSQL database deliver each message exactly once. Two
 * apps (their own pools, their own workers on the real clock) share the outbox; their claims are
 * FOR UPDATE SKIP LOCKED, so both take part and no message goes out twice.
 */
import { describeOnPostgres, twoInstances } from './support/harness';
import { VendorReceiver } from './support/vendor-receiver';
import { alarmMessage, createChannel, enqueue, notifySettings, TestClock } from './support/notify-fixtures';
import { startNotificationWorker } from '../../src/server/services/notification';

const MESSAGES = 120;

describeOnPostgres('notification delivery across instances', () => {
  const instances = twoInstances('postgres', notifySettings({ enabled: true, pollMs: 100 }));
  let receiver: VendorReceiver;

  beforeAll(async () => {
    const { a, b } = instances();
    // Each instance's worker, as main.ts starts it; closing the app stops it.
    startNotificationWorker(a.app);
    startNotificationWorker(b.app);
    receiver = await VendorReceiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('sends each message once, with both instances taking part', async () => {
    const { a, b } = instances();
    const admin = await a.login();
    // Answers take a while, so that one instance's round cannot finish before the other claims.
    const channels = await Promise.all(
      ['one', 'two', 'three'].map((name) =>
        createChannel(a, admin, { name: `Webhook-${name}`, type: 'webhook', config: { url: receiver.webhook(name, { behaviour: 'slow', slowMs: 20 }) } }),
      ),
    );
    const clock = new TestClock(Date.now());
    await enqueue(
      a,
      Array.from({ length: MESSAGES }, (_, n) => alarmMessage(channels[n % channels.length].id, n)),
      clock,
    );
    a.app.notifications.wake();
    b.app.notifications.wake();

    const deadline = Date.now() + 30_000;
    while (receiver.received.length < MESSAGES && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    // Anything sent twice would arrive meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const ids = receiver.received.map((r) => r.headers['x-hotel-message-id']);
    expect(ids).toHaveLength(MESSAGES);
    expect(new Set(ids).size).toBe(MESSAGES);
    const rows = await a.database.db.selectFrom('notifyMessage').select(['state', 'attempts', 'claimedBy']).execute();
    expect(rows.every((row) => row.state === 'sent' && row.attempts === 1)).toBe(true);
    const senders = new Set(rows.map((row) => row.claimedBy));
    expect(senders).toEqual(new Set([a.app.notifications.worker.claimer, b.app.notifications.worker.claimer]));
  }, 60_000);
});
