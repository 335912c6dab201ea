/**
 * Issue 28: the transaction that raises or clears alarms leaves one marker per event; the worker
 * expands it into messages afterwards. Nothing is lost and nothing is queued twice: an expansion
 * that fails before its commit leaves the marker whole; an instance that died after the alarm's
 * commit leaves the marker to the next one; two instances on one PostgreSQL database expand each
 * marker once.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';
import type { Dialect } from '../../src/server/db/dialect';
import { createTestDatabase, describeOnPostgres, dialects, SETUP_TIMEOUT_MS, startTestApp, twoInstances, type TestApp, type TestDatabase } from './support/harness';
import { deviceRow, setPresence } from './support/sys-fixtures';
import { VendorReceiver } from './support/vendor-receiver';
import { createChannel, expandAll, notifySettings, TestClock, testWorker } from './support/notify-fixtures';
import { runTask } from '../../src/server/services/scheduler/tasks';
import { expandAlarmEvents } from '../../src/server/services/notification/alarm-events';
import { ALARM_NOTIFICATION_KIND } from '../../src/server/services/events/outbox';

const MINUTE = 60_000;

/** A rule sending every alarm to the channel, with one escalation step to it after 5 minutes. */
async function ruleFor(t: TestApp, admin: string, channelId: number) {
  const answer = await t.call(
    '/monitor/rule/creation',
    {
      name: `全部告警 ${channelId}`,
      state: 1,
      alarmTypes: [],
      minSeverity: 'warning',
      orgId: null,
      locationId: null,
      symptoms: 1,
      channelIds: [channelId],
      quietStart: null,
      quietEnd: null,
      escalation: [{ afterMinutes: 5, channelIds: [channelId] }],
      remark: '',
    },
    admin,
  );
  expect(answer).toMatchObject({ code: 200 });
}

/** `count` devices that go offline at `at`: one sweep raises their alarms. */
async function outage(t: TestApp, prefix: string, count: number, at: number): Promise<number[]> {
  const { db } = t.database;
  const rows = await db
    .insertInto('hotelDevice')
    .values(Array.from({ length: count }, (_, n) => deviceRow(`${prefix}-${n}`)))
    .returning('id')
    .execute();
  const ids = rows.map((row) => row.id);
  await setPresence(db, ids, { online: 1, lastSeenAt: at - 10 * MINUTE });
  await runTask('device.offlineSweep', { minutes: 5 }, { app: t.app, now: at });
  return ids;
}

const markers = (db: Kysely<Database>) => db.selectFrom('eventOutbox').select(['id', 'payload']).where('kind', '=', ALARM_NOTIFICATION_KIND).orderBy('id').execute();

/** How many messages of each kind each alarm of these devices has. */
async function messagesPerAlarm(db: Kysely<Database>, deviceIds: number[]) {
  const rows = await db
    .selectFrom('notifyMessage as m')
    .innerJoin('hotelAlarm as a', 'a.id', 'm.alarmId')
    .select(['m.alarmId', 'm.kind'])
    .where('a.deviceId', 'in', deviceIds)
    .execute();
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(`${row.alarmId}:${row.kind}`, (counts.get(`${row.alarmId}:${row.kind}`) ?? 0) + 1);
  return counts;
}

/** A statement-level failure of every insert into notify_message: the expansion's transaction fails before its commit. */
async function failMessageInserts(db: Kysely<Database>, dialect: Dialect): Promise<() => Promise<void>> {
  if (dialect === 'postgres') {
    await sql`create function test_refuse_message() returns trigger language plpgsql as $$ begin raise exception 'crash'; end $$`.execute(db);
    await sql`create trigger test_refuse_message before insert on notify_message execute function test_refuse_message()`.execute(db);
    return async () => {
      await sql`drop trigger test_refuse_message on notify_message`.execute(db);
      await sql`drop function test_refuse_message()`.execute(db);
    };
  }
  await sql`create trigger test_refuse_message before insert on notify_message begin select raise(abort, 'crash'); end`.execute(db);
  return async () => {
    await sql`drop trigger test_refuse_message`.execute(db);
  };
}

for (const dialect of dialects()) {
  describe(`alarm events become messages after the alarm's commit [${dialect}]`, () => {
    let target: TestDatabase;
    let receiver: VendorReceiver;
    const opened: TestApp[] = [];
    const start = async () => {
      const t = await startTestApp(target, notifySettings());
      opened.push(t);
      return t;
    };

    beforeAll(async () => {
      target = await createTestDatabase(dialect);
      receiver = await VendorReceiver.start();
    }, SETUP_TIMEOUT_MS);
    afterAll(async () => {
      for (const t of opened) await t.close();
      await receiver?.close();
      await target?.drop();
    }, SETUP_TIMEOUT_MS);

    it('a failed expansion leaves its marker whole; an instance after a crash queues each message once', async () => {
      const first = await start();
      const admin = await first.login();
      const channel = await createChannel(first, admin, { name: 'replay-hook', type: 'webhook', config: { url: receiver.webhook('replay') } });
      await ruleFor(first, admin, channel.id);
      const clock = new TestClock(Date.now());
      const devices = await outage(first, 'REPLAY', 450, clock.now());
      // Staff clear one alarm before anything was expanded: its raise is still told, then its clear.
      const cleared = await first.database.db.selectFrom('hotelAlarm').select('id').where('deviceId', '=', devices[0]).executeTakeFirstOrThrow();
      expect(await first.call('/hotel/alarm/clear', { ids: [Number(cleared.id)] }, admin)).toMatchObject({ code: 200 });

      const before = await markers(first.database.db);
      expect(before).toHaveLength(2);
      expect(await messagesPerAlarm(first.database.db, devices)).toEqual(new Map());

      // The expansion's transaction fails after it has shortened the marker and queued nothing yet.
      const restore = await failMessageInserts(first.database.db, dialect);
      try {
        // SQLite's error comes from outside jest's realm: matched by its message.
        const failure = await expandAlarmEvents(first.database.db, dialect).then(
          () => 'expanded',
          (error: unknown) => (error as Error).message,
        );
        expect(failure).toMatch(/crash/);
      } finally {
        await restore();
      }
      expect(await markers(first.database.db)).toEqual(before);
      expect(await first.database.db.selectFrom('notifyEscalation').select('id').execute()).toEqual([]);

      // The instance dies after the alarms' commit; another one takes over.
      await first.close();
      const second = await start();
      // The staff clear stamps the real time: the worker's clock runs past it.
      clock.advance(MINUTE);
      await testWorker(second, clock, 'second').drain();
      await testWorker(second, clock, 'second').drain();
      expect(await markers(second.database.db)).toEqual([]);

      const counts = await messagesPerAlarm(second.database.db, devices);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      expect([...counts.keys()].filter((key) => key.endsWith(':raise'))).toHaveLength(devices.length);
      expect([...counts.keys()].filter((key) => key.endsWith(':clear'))).toHaveLength(1);
      expect(await second.database.db.selectFrom('notifyEscalation').select('id').execute()).toHaveLength(devices.length - 1);
      // Each sent, once.
      const states = await second.database.db.selectFrom('notifyMessage').select('state').distinct().where('kind', 'in', ['raise', 'clear']).execute();
      expect(states.map((row) => row.state)).toEqual(['sent']);
      const delivered = receiver.of('webhook', 'replay').map((got) => got.headers['x-hotel-message-id']);
      expect(delivered).toHaveLength(devices.length + 1);
      expect(new Set(delivered).size).toBe(delivered.length);
      // The cleared alarm's clear was queued after its raise.
      const told = await second.database.db.selectFrom('notifyMessage').select(['id', 'kind']).where('alarmId', '=', Number(cleared.id)).orderBy('id').execute();
      expect(told.map((m) => m.kind)).toEqual(['raise', 'clear']);
    }, 60_000);

    it('a marker outlives the pruning of old events', async () => {
      const t = opened.at(-1)!;
      const { db } = t.database;
      const admin = await t.login();
      const channel = await createChannel(t, admin, { name: 'prune-hook', type: 'webhook', config: { url: receiver.webhook('prune') } });
      await ruleFor(t, admin, channel.id);
      const at = Date.now();
      const devices = await outage(t, 'PRUNE', 3, at);
      await runTask('session.purgeExpired', {}, { app: t.app, now: at + 60 * MINUTE });
      expect(await markers(db)).toHaveLength(1);
      await expandAll(t);
      expect([...(await messagesPerAlarm(db, devices)).keys()]).toHaveLength(3);
    });
  });
}

describeOnPostgres('alarm events across instances', () => {
  const instances = twoInstances('postgres', notifySettings());
  let receiver: VendorReceiver;

  beforeAll(async () => {
    receiver = await VendorReceiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('two instances expanding at once queue each message once', async () => {
    const { a, b } = instances();
    const admin = await a.login();
    const channel = await createChannel(a, admin, { name: 'instances-hook', type: 'webhook', config: { url: receiver.webhook('instances') } });
    await ruleFor(a, admin, channel.id);
    const at = Date.now();
    // Two sweeps: two markers of several chunks each.
    const devices = [...(await outage(a, 'TWO-A', 700, at)), ...(await outage(b, 'TWO-B', 700, at + 1000))];
    expect(await markers(a.database.db)).toHaveLength(2);

    const taken = { a: 0, b: 0 };
    const expandOn = async (t: TestApp, name: 'a' | 'b') => {
      for (let idle = 0; idle < 3;) {
        const n = await expandAlarmEvents(t.database.db, 'postgres');
        taken[name] += n;
        idle = n === 0 ? idle + 1 : 0;
        if (n === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    await Promise.all([expandOn(a, 'a'), expandOn(b, 'b')]);
    expect(taken.a + taken.b).toBe(devices.length);
    expect(await markers(a.database.db)).toEqual([]);
    const counts = await messagesPerAlarm(a.database.db, devices);
    expect(counts.size).toBe(devices.length);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(await a.database.db.selectFrom('notifyEscalation').select('id').execute()).toHaveLength(devices.length);
  }, 60_000);
});
