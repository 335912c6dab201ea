/**
 * Issue 27: the live event stream. Real HTTP against the test app: tickets (single use, 30 s),
 * refusals without noise in the log, a device going offline reaching a connected console, resume
 * by Last-Event-ID (or a reload past the window), events filtered by the receiver's grants, a
 * forced logout ending the stream with its reason; on PostgreSQL, an event published on one
 * instance reaching a console connected to another.
 */
import { describeOnEachDatabase, describeOnPostgres, twoInstances, type TestApp } from './support/harness';
import { expectOk, menuGrants, setPresence, signedInOperator } from './support/sys-fixtures';
import { captureLog } from './support/log-capture';
import { listening, openStream, type SseEvent, type SseStream } from './support/sse-client';
import { runTask } from '../../src/server/services/scheduler/tasks';
import { acknowledgeCommand, latestCommands } from '../../src/server/routes/hotel/device/commands';
import { EventHub, RETENTION_MS, TICKET_TTL_MS } from '../../src/server/services/events';

const MINUTE = 60_000;
const log = captureLog();
const device = (sn: string, orgId?: number) => ({ name: `设备 ${sn}`, sn, type: 'lock', state: 1, remark: '', ...(orgId === undefined ? {} : { orgId }) });

/** A refused stream's answer: the JSON envelope (HTTP 200, as every refusal), not a stream. */
async function refusal(stream: SseStream): Promise<{ code: number; msg: string }> {
  await stream.ended;
  expect(stream.events).toEqual([]);
  return JSON.parse(stream.body) as { code: number; msg: string };
}

const ticketOf = async (t: TestApp, token: string) => expectOk(await t.call('/events/ticket', null, token)).ticket;

/** Creates a device, online and last heard from long ago, and sweeps it offline: answers its id. */
async function takeOffline(t: TestApp, admin: string, sn: string, orgId?: number): Promise<number> {
  const created = expectOk(await t.call('/hotel/device/creation', device(sn, orgId), admin));
  const now = Date.now();
  await setPresence(t.database.db, [created.device.id], { online: 1, lastSeenAt: now - 10 * MINUTE });
  await runTask('device.offlineSweep', { minutes: 5 }, { app: t.app, now });
  return created.device.id;
}

const statusOf = (deviceId: number) => (event: SseEvent) => event.event === 'device-status' && (event.data as { deviceIds: number[] }).deviceIds.includes(deviceId);
const alarmOf = (deviceId: number) => (event: SseEvent) => event.event === 'alarm-raised' && (event.data as { deviceIds: number[] }).deviceIds.includes(deviceId);

describeOnEachDatabase(
  'live event stream',
  (ctx) => {
    let admin: string;
    let base: string;
    beforeAll(async () => {
      admin = await ctx().login();
      base = await listening(ctx().app);
      // Only this test's devices are online: the sweep takes no one else's.
      await ctx().database.db.updateTable('hotelDevicePresence').set({ online: 0 }).execute();
    });

    describe('tickets', () => {
      it('answers a random ticket valid for 30 s at most, redeemable once', async () => {
        const before = Date.now();
        const ticket = await ticketOf(ctx(), admin);
        expect(ticket).toMatch(/^[\w-]{40,}$/);
        expect(await ticketOf(ctx(), admin)).not.toBe(ticket);
        const stored = await ctx().database.db.selectFrom('eventTicket').select('expiresAt').orderBy('expiresAt', 'desc').executeTakeFirstOrThrow();
        expect(stored.expiresAt).toBeLessThanOrEqual(Date.now() + TICKET_TTL_MS);
        expect(stored.expiresAt).toBeGreaterThanOrEqual(before + TICKET_TTL_MS);
        // The ticket table keeps no ticket in the clear.
        expect(await ctx().database.db.selectFrom('eventTicket').select('ticketHash').where('ticketHash', '=', ticket).execute()).toEqual([]);

        const first = await openStream(base, { ticket });
        expect(first.status).toBe(200);
        await first.next((event) => event.event === 'ready');
        const again = await openStream(base, { ticket });
        expect(await refusal(again)).toMatchObject({ code: 401, msg: '实时事件票据无效或已过期，请重新获取' });
        first.close();
      });

      it('refuses an expired ticket', async () => {
        const ticket = await ticketOf(ctx(), admin);
        await ctx()
          .database.db.updateTable('eventTicket')
          .set({ expiresAt: Date.now() - 1 })
          .execute();
        const stream = await openStream(base, { ticket });
        expect((await refusal(stream)).code).toBe(401);
      });

      it('refuses no ticket, a made-up one and a ticket request without a session, logging nothing above warn', async () => {
        const from = log.lines.length;
        const none = await openStream(base, {});
        expect((await refusal(none)).code).toBe(400);
        const madeUp = await openStream(base, { ticket: 'x'.repeat(43) });
        expect((await refusal(madeUp)).code).toBe(401);
        expect((await ctx().call('/events/ticket', null)).code).toBe(401);
        const levels = log.lines.slice(from).map((line) => (JSON.parse(line) as { level: number }).level);
        expect(levels.length).toBeGreaterThan(0);
        expect(levels.every((level) => level <= 40)).toBe(true);
      });

      it('refuses the ticket of a session that has ended since', async () => {
        const token = await ctx().login();
        const ticket = await ticketOf(ctx(), token);
        expectOk(await ctx().call('/sys/user/logout', null, token));
        const stream = await openStream(base, { ticket });
        expect((await refusal(stream)).code).toBe(401);
      });
    });

    describe('events', () => {
      it('sends a device going offline, and its alarm, to a connected console, with the outbox id as the event id', async () => {
        const stream = await openStream(base, { ticket: await ticketOf(ctx(), admin) });
        expect(stream.status).toBe(200);
        await stream.next((event) => event.event === 'ready');
        const id = await takeOffline(ctx(), admin, 'EVT-0001');
        const status = await stream.next(statusOf(id));
        expect(status.data).toMatchObject({ online: 0 });
        const alarm = await stream.next(alarmOf(id));
        expect(alarm.data).toMatchObject({ type: 'offline' });
        const stored = await ctx().database.db.selectFrom('eventOutbox').select(['id', 'kind']).where('id', 'in', [status.id!, alarm.id!]).orderBy('id').execute();
        expect(stored).toEqual([
          { id: status.id, kind: 'device-status' },
          { id: alarm.id, kind: 'alarm-raised' },
        ]);
        // Staff acknowledging and clearing it are events too.
        const alarmId = (await ctx().database.db.selectFrom('hotelAlarm').select('id').where('deviceId', '=', id).executeTakeFirstOrThrow()).id;
        expectOk(await ctx().call('/hotel/alarm/acknowledge', { ids: [alarmId] }, admin));
        expect((await stream.next((event) => event.event === 'alarm-acknowledged')).data).toMatchObject({ alarmIds: [alarmId], by: 'admin' });
        expectOk(await ctx().call('/hotel/alarm/clear', { ids: [alarmId] }, admin));
        expect((await stream.next((event) => event.event === 'alarm-cleared')).data).toMatchObject({ alarmIds: [alarmId], by: 'admin' });
        stream.close();
      });

      it('resumes after Last-Event-ID with what was missed, in order, and says reload past the window', async () => {
        const first = await openStream(base, { ticket: await ticketOf(ctx(), admin) });
        await first.next((event) => event.event === 'ready');
        const a = await takeOffline(ctx(), admin, 'EVT-0101');
        const seen = await first.next(statusOf(a));
        first.close();
        await first.ended;
        // Missed while away.
        const b = await takeOffline(ctx(), admin, 'EVT-0102');

        const resumed = await openStream(base, { ticket: await ticketOf(ctx(), admin) }, { 'last-event-id': String(seen.id) });
        await resumed.next((event) => event.event === 'ready');
        const replayed = resumed.events.filter((event) => event.id !== null);
        expect(replayed.map((event) => event.event)).toEqual(['alarm-raised', 'device-status', 'alarm-raised']);
        expect(replayed[0].data).toMatchObject({ deviceIds: [a] });
        expect(replayed[1].data).toMatchObject({ deviceIds: [b] });
        const ids = replayed.map((event) => event.id!);
        expect(ids).toEqual([...ids].sort((x, y) => x - y));
        expect(ids[0]).toBeGreaterThan(seen.id!);
        resumed.close();

        // The same through the query (a client reconnecting by hand).
        const byQuery = await openStream(base, { ticket: await ticketOf(ctx(), admin), lastEventId: String(ids[1]) });
        await byQuery.next((event) => event.event === 'ready');
        expect(byQuery.events.filter((event) => event.id !== null).map((event) => event.id)).toEqual([ids[2]]);
        byQuery.close();

        // What came after id 1 is partly gone (pruned past the window): the console reloads.
        const oldest = (await ctx().database.db.selectFrom('eventOutbox').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
        await ctx()
          .database.db.deleteFrom('eventOutbox')
          .where('id', '<=', oldest + 1)
          .execute();
        const stale = await openStream(base, { ticket: await ticketOf(ctx(), admin) }, { 'last-event-id': String(oldest) });
        await stale.next((event) => event.event === 'ready');
        expect(stale.events.map((event) => event.event)).toEqual(['reload', 'ready']);
        stale.close();
      });

      it('sends a receiver only the events their role holds the screen for, re-reading the grants', async () => {
        const deviceOnly = await signedInOperator(ctx(), admin, 'evt_device', await menuGrants(ctx(), '/hotel/device'));
        const nothing = await signedInOperator(ctx(), admin, 'evt_none', await menuGrants(ctx(), '/sys/dict'));
        const devices = await openStream(base, { ticket: await ticketOf(ctx(), deviceOnly.token) });
        const none = await openStream(base, { ticket: await ticketOf(ctx(), nothing.token) });
        const all = await openStream(base, { ticket: await ticketOf(ctx(), admin) });
        await Promise.all([devices, none, all].map((stream) => stream.next((event) => event.event === 'ready')));

        const a = await takeOffline(ctx(), admin, 'EVT-0201');
        await all.next(alarmOf(a));
        const b = await takeOffline(ctx(), admin, 'EVT-0202');
        await all.next(alarmOf(b));
        // In id order: by the time b's status arrives, a's alarm would have come before it.
        await devices.next(statusOf(b));
        expect(devices.events.filter((event) => event.id !== null).map((event) => [event.event, (event.data as { deviceIds: number[] }).deviceIds])).toEqual([
          ['device-status', [a]],
          ['device-status', [b]],
        ]);

        // Granted the alarm screen now: the next alarm reaches the same stream.
        expectOk(await ctx().call('/sys/role/auth', { roleId: deviceOnly.role.id, grant: await menuGrants(ctx(), '/hotel/alarm'), revoke: [] }, admin));
        const c = await takeOffline(ctx(), admin, 'EVT-0203');
        await devices.next(alarmOf(c));
        await all.next(alarmOf(c));
        expect(none.events.filter((event) => event.id !== null)).toEqual([]);
        for (const stream of [devices, none, all]) stream.close();
      });

      it("sends a receiver only the events of their data scope's units, read at each event", async () => {
        const db = ctx().database.db;
        const root = (await db.selectFrom('sysOrg').select('id').where('code', '=', 'ROOT').executeTakeFirstOrThrow()).id;
        const hotel = async (code: string) =>
          expectOk(await ctx().call('/sys/org/creation', { pid: root, name: `事件酒店 ${code}`, kind: 'hotel', code, state: 1, sort: 0, remark: '' }, admin)).id;
        const [hotelA, hotelB] = [await hotel('EVT-A'), await hotel('EVT-B')];
        const grants = [...(await menuGrants(ctx(), '/hotel/device')), ...(await menuGrants(ctx(), '/hotel/alarm'))];
        const scopedTo = async (name: string, dataScope: string) => {
          const operator = await signedInOperator(ctx(), admin, name, grants);
          await db.updateTable('sysRole').set({ dataScope }).where('id', '=', operator.role.id).execute();
          await db.updateTable('sysUser').set({ orgId: hotelA }).where('id', '=', operator.user.id).execute();
          return operator;
        };
        const [onlyA, self] = [await scopedTo('evt_hotel_a', 'org'), await scopedTo('evt_self', 'self')];
        const streamA = await openStream(base, { ticket: await ticketOf(ctx(), onlyA.token) });
        const streamSelf = await openStream(base, { ticket: await ticketOf(ctx(), self.token) });
        const all = await openStream(base, { ticket: await ticketOf(ctx(), admin) });
        await Promise.all([streamA, streamSelf, all].map((stream) => stream.next((event) => event.event === 'ready')));

        const a = await takeOffline(ctx(), admin, 'EVT-0501', hotelA);
        const b = await takeOffline(ctx(), admin, 'EVT-0502', hotelB);
        await all.next(alarmOf(b));
        const later = await takeOffline(ctx(), admin, 'EVT-0503', hotelA);
        // In id order: by the time the later device's alarm arrives, anything about b would have come before it.
        await streamA.next(alarmOf(later));
        await all.next(alarmOf(later));
        const devicesSeen = (stream: SseStream) => stream.events.filter((event) => event.id !== null).flatMap((event) => (event.data as { deviceIds?: number[] }).deviceIds ?? []);
        expect(devicesSeen(streamA)).toEqual([a, a, later, later]);
        expect(devicesSeen(all)).toEqual(expect.arrayContaining([a, b, later]));
        // Scope self holds the rows a user created, never a unit's events.
        expect(streamSelf.events.filter((event) => event.id !== null)).toEqual([]);

        // Hotel B joins the receiver's scope (the role now names A and B): the next event of B reaches them.
        await db.updateTable('sysRole').set({ dataScope: 'custom' }).where('id', '=', onlyA.role.id).execute();
        await db
          .insertInto('sysRoleOrg')
          .values([hotelA, hotelB].map((orgId) => ({ roleId: onlyA.role.id, orgId })))
          .execute();
        const c = await takeOffline(ctx(), admin, 'EVT-0504', hotelB);
        await streamA.next(alarmOf(c));
        for (const stream of [streamA, streamSelf, all]) stream.close();
      });

      it("sends a command's acknowledgement and its time-out", async () => {
        const stream = await openStream(base, { ticket: await ticketOf(ctx(), admin) });
        await stream.next((event) => event.event === 'ready');
        const created = expectOk(await ctx().call('/hotel/device/creation', device('EVT-0401'), admin));
        const deviceId = created.device.id;
        const command = (sentAt: number) =>
          ctx()
            .database.db.insertInto('hotelDeviceCommand')
            .values({ deviceId, command: 'reboot', status: 'sent', sentAt, ackedAt: null, requestedBy: 1 })
            .returning('id')
            .executeTakeFirstOrThrow();
        const acked = await command(Date.now());
        expect(await acknowledgeCommand(ctx().app, deviceId, acked.id)).toBe(true);
        expect((await stream.next((event) => event.event === 'command-status')).data).toMatchObject({ commandIds: [acked.id], deviceIds: [deviceId], status: 'acked' });
        // Read past its time-out, a command becomes timed_out, announced too.
        const late = await command(Date.now() - ctx().config.mqtt.commandTimeoutMs - 1000);
        await latestCommands(ctx().app, [deviceId]);
        const timedOut = await stream.next((event) => event.event === 'command-status' && (event.data as { status: string }).status === 'timed_out');
        expect(timedOut.data).toMatchObject({ commandIds: [late.id], deviceIds: [deviceId] });
        stream.close();
      });

      it('prunes outbox rows past the resume window and lapsed tickets with the daily session purge', async () => {
        const now = Date.now();
        const db = ctx().database.db;
        const old = await db
          .insertInto('eventOutbox')
          .values({ kind: 'device-status', payload: '{}', resource: null, sessionId: null, orgId: null, createdAt: now - RETENTION_MS - 1 })
          .returning('id')
          .executeTakeFirstOrThrow();
        const recent = await db
          .insertInto('eventOutbox')
          .values({ kind: 'device-status', payload: '{}', resource: null, sessionId: null, orgId: null, createdAt: now - 1000 })
          .returning('id')
          .executeTakeFirstOrThrow();
        await db
          .insertInto('eventTicket')
          .values({ ticketHash: 'lapsed', sessionId: 1, expiresAt: now - 2 * TICKET_TTL_MS, usedAt: null })
          .execute();
        await runTask('session.purgeExpired', {}, { app: ctx().app, now });
        const left = await db.selectFrom('eventOutbox').select('id').where('id', 'in', [old.id, recent.id]).execute();
        expect(left.map((row) => row.id)).toEqual([recent.id]);
        expect(await db.selectFrom('eventTicket').select('ticketHash').where('ticketHash', '=', 'lapsed').execute()).toEqual([]);
      });

      it('ends a stream whose session lapses (idle or absolute expiry) at its next heartbeat, with reason expired', async () => {
        const token = await ctx().login();
        const session = await ctx().database.db.selectFrom('sysSession').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
        // A hub of its own with a quick heartbeat, on the same database.
        const hub = new EventHub({
          db: ctx().database.db,
          dialect: ctx().database.dialect,
          idleMinutes: ctx().config.session.idleMinutes,
          heartbeatMs: 50,
          log: { warn: () => undefined },
        });
        const written: string[] = [];
        let ended = false;
        const sink = { write: (chunk: string) => written.push(chunk) > 0, end: () => (ended = true), writableLength: 0 };
        await hub.join({ sessionId: session.id, userId: 1, roleId: 1, builtin: true }, sink, null);
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(ended).toBe(false);
        expect(written).toContain(': ping\n\n');
        await ctx()
          .database.db.updateTable('sysSession')
          .set({ expiresAt: Date.now() - 1 })
          .where('id', '=', session.id)
          .execute();
        for (let waited = 0; !ended && waited < 2000; waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
        expect(ended).toBe(true);
        expect(written.at(-1)).toBe('event: session-ended\ndata: {"reason":"expired","msg":"登录已失效，请重新登录"}\n\n');
        expect(hub.size).toBe(0);
        await hub.stop();
        expect((await ctx().call('GET /sys/menu/authority', null, token)).code).toBe(401);
      });

      it('ends the stream of a session forced out, with the reason, and only that one', async () => {
        const victim = await signedInOperator(ctx(), admin, 'evt_victim', await menuGrants(ctx(), '/hotel/device'));
        const stream = await openStream(base, { ticket: await ticketOf(ctx(), victim.token) });
        const watcher = await openStream(base, { ticket: await ticketOf(ctx(), admin) });
        await Promise.all([stream, watcher].map((s) => s.next((event) => event.event === 'ready')));
        expectOk(await ctx().call('/monitor/online/revoke/user', { userId: victim.user.id }, admin));
        const ended = await stream.next((event) => event.event === 'session-ended');
        expect(ended.data).toEqual({ reason: 'forced', msg: '被 admin 强制下线，请重新登录' });
        await stream.ended;
        // The admin's stream heard nothing of it and stays open.
        const d = await takeOffline(ctx(), admin, 'EVT-0301');
        await watcher.next(statusOf(d));
        expect(watcher.events.some((event) => event.event === 'session-ended')).toBe(false);
        watcher.close();
      });
    });
  },
  {},
  { logger: { level: 'info', stream: log.stream } },
);

describeOnPostgres('live event stream across instances', () => {
  // No slow poll within the test's time: only NOTIFY can bring the event across.
  const instances = twoInstances();

  it('brings an event published on instance A to a console connected to instance B, and closes it when B stops', async () => {
    const { a, b } = instances();
    const admin = await a.login();
    await a.database.db.updateTable('hotelDevicePresence').set({ online: 0 }).execute();
    // The ticket from A, redeemed on B: tickets live in the shared database.
    const stream = await openStream(await listening(b.app), { ticket: await ticketOf(a, admin) });
    expect(stream.status).toBe(200);
    await stream.next((event) => event.event === 'ready');
    const started = Date.now();
    const id = await takeOffline(a, admin, 'EVT-X001');
    await stream.next(statusOf(id), 3_000);
    expect(Date.now() - started).toBeLessThan(3_000);

    const closing = b.close();
    await stream.ended;
    await closing;
  }, 30_000);
});
