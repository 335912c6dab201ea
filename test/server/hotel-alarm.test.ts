import { createTestDatabase, describeOnEachDatabase, dialects, type TestApp } from './support/harness';
import { migrateUpTo, openTestKysely } from './support/migrations';
import type { EndpointKey } from '../../src/contract';
import { expectOk, menuGrants, setPresence, signedInOperator } from './support/sys-fixtures';
import { deviceWithPresence } from '../../src/server/routes/hotel/device/presence';
import { SYSTEM_SCOPE } from '../../src/server/lib/data-scope';
import { queryPlan } from './support/query-plan';
import { sql, type CompiledQuery } from 'kysely';
import { runTask } from '../../src/server/services/scheduler/tasks';
import { ChunkPacing, flipStaleOffline, staleChunk, sweepOffline, sweepPacing, SWEEP_CHUNK, type StaleDevices } from '../../src/server/services/device-status/offline-sweep';
import { scriptedPacing } from './support/sweep-pacing';
import { alarmsRaisedAt, applyDeviceTransitions, DELETED_DEVICE, OFFLINE_ALARM, TransitionRecords } from '../../src/server/services/device-status/transitions';

const MINUTE = 60_000;
const ALARM_ENDPOINTS: EndpointKey[] = ['/hotel/alarm/inquire', '/hotel/alarm/acknowledge', '/hotel/alarm/clear', '/hotel/alarm/timeout/inquire', '/hotel/alarm/timeout/edit'];

const device = (sn: string, type = 'lock') => ({ name: `设备 ${sn}`, sn, type, state: 1, remark: '' });

async function heartbeat(app: TestApp, sn: string, key: string) {
  const response = await app.app.inject({ method: 'POST', url: '/api/hotel/device/heartbeat', headers: { 'x-device-key': key }, payload: { sn } });
  expect(response.json()).toMatchObject({ code: 200 });
}

describeOnEachDatabase('hotel/alarm', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });
  // Each test sweeps only its own devices: everything else is offline (set directly, no transition).
  beforeEach(async () => {
    await ctx().database.db.updateTable('hotelDevicePresence').set({ online: 0 }).execute();
  });

  const db = () => ctx().database.db;
  const create = async (sn: string, type = 'lock') => expectOk(await ctx().call('/hotel/device/creation', device(sn, type), admin));
  /** Online, last heard from `lastSeenAt` (as if its heartbeat had come then). */
  const onlineSince = (ids: number[], lastSeenAt: number) => setPresence(db(), ids, { online: 1, lastSeenAt });
  const sweep = (now: number, minutes = 5) => runTask('device.offlineSweep', { minutes }, { app: ctx().app, now });
  const stored = async (id: number) => (await deviceWithPresence(db(), SYSTEM_SCOPE, id))!;
  const alarmsOf = (deviceId: number) => db().selectFrom('hotelAlarm').selectAll().where('deviceId', '=', deviceId).orderBy('id').execute();
  /** The offline condition again for `d` at `at`, as a sweep would apply it to a device already offline. */
  const offlineAgain = async (d: { id: number; name: string; sn: string }, at: number) => {
    const records = new TransitionRecords(ctx().app, 0, at);
    await applyDeviceTransitions(ctx().app, db(), { devices: [{ id: d.id, name: d.name, sn: d.sn }], to: 0, cause: 'sweep', at }, records);
    await records.write();
  };
  const transitionsOf = (deviceId: number) => db().selectFrom('hotelDeviceTransition').select(['online', 'at', 'cause']).where('deviceId', '=', deviceId).orderBy('id').execute();

  describe('status history', () => {
    it('writes a transition row per change, stamps online/offline since, and answers the history newest first with recent alarms', async () => {
      const { device: d, deviceKey } = await create('HIS-0001');
      const now = Date.now();
      await onlineSince([d.id], now - 10 * MINUTE);
      expect(await sweep(now)).toBe('已将 1 台超过 5 分钟没有心跳的设备标记为离线');
      expect(await stored(d.id)).toMatchObject({ online: 0, offlineSince: now });
      await heartbeat(ctx(), 'HIS-0001', deviceKey);
      const back = await stored(d.id);
      expect(back.online).toBe(1);
      expect(back.onlineSince).toBeGreaterThanOrEqual(now);
      expect(await transitionsOf(d.id)).toEqual([
        { online: 0, at: now, cause: 'sweep' },
        { online: 1, at: back.onlineSince, cause: 'heartbeat' },
      ]);

      const status = expectOk(await ctx().call('/hotel/device/status', { id: d.id, size: 1, current: 1 }, admin));
      expect(status).toMatchObject({ online: 1, onlineSince: back.onlineSince, offlineSince: now, lastSeenAt: back.lastSeenAt });
      expect(status.transitions).toMatchObject({ total: 2, records: [{ online: 1, cause: 'heartbeat' }] });
      expect(status.alarms).toMatchObject([{ deviceId: d.id, type: 'offline', clearedBy: '系统' }]);
      const page2 = expectOk(await ctx().call('/hotel/device/status', { id: d.id, size: 1, current: 2 }, admin));
      expect(page2.transitions.records).toMatchObject([{ online: 0, cause: 'sweep', at: now }]);

      const listed = expectOk(await ctx().call('/hotel/device/inquire', { size: 20, current: 1, params: { sn: 'HIS-0001' } }, admin));
      expect(listed.records[0]).toMatchObject({ onlineSince: back.onlineSince, offlineSince: now });
      expect(await ctx().call('/hotel/device/status', { id: 999_999, size: 10, current: 1 }, admin)).toEqual({ code: 404, msg: '设备不存在', data: null });
    });
  });

  describe('the records of a run', () => {
    it('name a device deleted between its flip and the records by its id', async () => {
      const { device: kept } = await create('REC-KEPT-01');
      const { device: gone } = await create('REC-GONE-01');
      const at = Date.now();
      const records = new TransitionRecords(ctx().app, 0, at);
      // As the sweep hands them over: ids only, named when the records are written.
      await applyDeviceTransitions(ctx().app, db(), { devices: [{ id: kept.id }, { id: gone.id }], to: 0, cause: 'sweep', at }, records);
      await db().deleteFrom('hotelDevice').where('id', '=', gone.id).execute();
      await records.write();
      const labels = await db()
        .selectFrom('sysOperationLog')
        .select(['action', 'targetLabel'])
        .where('targetId', 'in', [String(kept.id), String(gone.id)])
        .where('targetType', '=', 'device')
        .where('action', '=', '设备离线')
        .orderBy('id')
        .execute();
      expect(labels).toEqual([
        { action: '设备离线', targetLabel: `${kept.name}（REC-KEPT-01）` },
        { action: '设备离线', targetLabel: `#${gone.id}（${DELETED_DEVICE}）` },
      ]);
      // No screen deletes devices; the alarm and history rows left by this one go too, as the other tests count alarms.
      await db().deleteFrom('hotelAlarm').where('deviceId', '=', gone.id).execute();
      await db().deleteFrom('hotelDeviceTransition').where('deviceId', '=', gone.id).execute();
    });
  });

  describe('a mass outage', () => {
    const planOf = (compiled: CompiledQuery) => queryPlan(ctx(), compiled);
    const quietBefore: StaleDevices = (eb, column) => eb.and([eb(column('online'), '=', 1), eb(column('lastSeenAt'), '<', 1_800_000_000_000)]);

    it('reads each sweep chunk as one index range, with no sort, when every device went quiet at once', async () => {
      const plan = await planOf(staleChunk(db(), quietBefore, { id: 500, lastSeenAt: 1_700_000_000_000 }).compile());
      expect(plan).toMatch(/hotel_device_presence_online_seen/);
      expect(plan).not.toMatch(/Sort|TEMP B-TREE/);
    });

    it('flips a chunk by its ids, never reading the range of every stale device again', async () => {
      const plan = await planOf(flipStaleOffline(ctx().app, db(), quietBefore, [1, 2, 3], Date.now()).compile());
      expect(plan).toMatch(/INTEGER PRIMARY KEY|hotel_device_presence_pkey/);
      expect(plan).not.toMatch(/hotel_device_presence_online_seen/);
    });

    /** `count` new devices, online and last heard from 10 minutes before `now`: their ids, in the order the sweep takes them. */
    const quietDevices = async (count: number, prefix: string, now: number) => {
      const rows = Array.from({ length: count }, (_, i) => ({
        name: `批量 ${i}`,
        sn: `${prefix}-${String(i).padStart(6, '0')}`,
        type: 'lock',

        locationId: null,
        state: 1,
        keyHash: 'x',
        remark: '',
        createdAt: now,
        updatedAt: now,
      }));
      const ids: number[] = [];
      for (let i = 0; i < rows.length; i += 500) {
        const inserted = await db()
          .insertInto('hotelDevice')
          .values(rows.slice(i, i + 500))
          .returning('id')
          .execute();
        ids.push(...inserted.map((row) => row.id));
      }
      await onlineSince(ids, now - 10 * MINUTE);
      return ids.sort((a, b) => a - b);
    };
    /** The operation-log records of devices and alarms written after `afterId`. */
    const summariesAfter = (afterId: number) =>
      db().selectFrom('sysOperationLog').select(['action', 'targetLabel']).where('id', '>', afterId).where('targetType', 'in', ['device', 'alarm']).orderBy('id').execute();
    const lastRecordId = async () =>
      Number(
        (
          await db()
            .selectFrom('sysOperationLog')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirstOrThrow()
        ).id,
      );

    it("counts a chunk's raised alarms by device, never through the started-at index that every alarm of the outage shares", async () => {
      const plan = await planOf(alarmsRaisedAt(ctx().app, db(), [1, 2, 3], Date.now()).compile());
      expect(plan).toMatch(/hotel_alarm_active|hotel_alarm_device/);
      expect(plan).not.toMatch(/hotel_alarm_started/);
    });

    it('sweeps more devices than one chunk holds: every one offline, with its transition and alarm', async () => {
      const now = Date.now();
      const count = SWEEP_CHUNK + 7;
      await quietDevices(count, 'OUTAGE', now);
      const before = await lastRecordId();
      // Between its chunks the sweep lets the event loop run: a timer due at once fires before the
      // sweep ends (on SQLite, where every statement is synchronous, it would otherwise wait for all).
      let sweptAt = 0;
      let timerAt = 0;
      const swept = sweep(now).then((message) => ((sweptAt = performance.now()), message));
      setTimeout(() => (timerAt = performance.now()), 0);
      expect(await swept).toBe(`已将 ${count} 台超过 5 分钟没有心跳的设备标记为离线`);
      expect(timerAt).toBeGreaterThan(0);
      expect(timerAt).toBeLessThan(sweptAt);
      const mass = db().selectFrom('hotelDevice').where('sn', 'like', 'OUTAGE-%');
      expect(
        Number(
          (
            await mass
              .innerJoin('hotelDevicePresence', 'hotelDevicePresence.id', 'hotelDevice.id')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('online', '=', 1)
              .executeTakeFirstOrThrow()
          ).n,
        ),
      ).toBe(0);
      const ids = mass.select('id');
      const counted = async (table: 'hotelDeviceTransition' | 'hotelAlarm') =>
        Number(
          (
            await db()
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('deviceId', 'in', ids)
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await counted('hotelDeviceTransition')).toBe(count);
      expect(await counted('hotelAlarm')).toBe(count);
      // One run, however many chunks: one summary record per kind, not one per chunk.
      expect(await summariesAfter(before)).toEqual([
        { action: '设备离线', targetLabel: `${count} 台设备` },
        { action: '告警产生', targetLabel: `${count} 条离线告警` },
      ]);
    }, 120_000);

    it('a chunk size that changes from chunk to chunk neither skips nor repeats a device', async () => {
      const now = Date.now();
      const ids = await quietDevices(23, 'PACE', now);
      // Both ranges (never heard from; quiet), and devices sharing one last-seen time (ties the cursor steps over).
      await setPresence(db(), ids.slice(0, 6), { online: 1, lastSeenAt: null });
      await setPresence(db(), ids.slice(6, 15), { online: 1, lastSeenAt: now - 20 * MINUTE });
      expect(await sweepOffline(ctx().app, now, 5, { ...sweepPacing(ctx().app), devices: scriptedPacing([3, 1, 5, 2, 4]) })).toBe(
        `已将 ${ids.length} 台超过 5 分钟没有心跳的设备标记为离线`,
      );
      const perDevice = async (table: 'hotelDeviceTransition' | 'hotelAlarm') =>
        (
          await db()
            .selectFrom(table)
            .select(['deviceId', (eb) => eb.fn.countAll<number | string>().as('n')])
            .where('deviceId', 'in', ids)
            .groupBy('deviceId')
            .orderBy('deviceId')
            .execute()
        ).map((row) => [row.deviceId, Number(row.n)]);
      expect(await perDevice('hotelDeviceTransition')).toEqual(ids.map((id) => [id, 1]));
      expect(await perDevice('hotelAlarm')).toEqual(ids.map((id) => [id, 1]));
    });

    it('past the chunk whose alarms the record itemizes, repeats an active alarm and counts only the alarms it raised', async () => {
      const now = Date.now();
      const ids = await quietDevices(SWEEP_CHUNK + 7, 'REPEAT', now);
      // Three devices of the last chunk still have their offline alarm from an earlier outage.
      const repeating = ids.slice(-3);
      const earlier = now - 60 * MINUTE;
      await db()
        .insertInto('hotelAlarm')
        .values(repeating.map((deviceId) => ({ deviceId, ...OFFLINE_ALARM, startedAt: earlier, lastAt: earlier, count: 1 })))
        .execute();
      const before = await lastRecordId();
      expect(await sweep(now)).toBe(`已将 ${ids.length} 台超过 5 分钟没有心跳的设备标记为离线`);
      const alarms = await db().selectFrom('hotelAlarm').select(['deviceId', 'count', 'startedAt', 'lastAt']).where('deviceId', 'in', ids).orderBy('deviceId').execute();
      expect(alarms).toHaveLength(ids.length);
      expect(alarms.filter((alarm) => repeating.includes(alarm.deviceId))).toEqual(repeating.map((deviceId) => ({ deviceId, count: 2, startedAt: earlier, lastAt: now })));
      expect(alarms.filter((alarm) => !repeating.includes(alarm.deviceId)).every((alarm) => alarm.count === 1 && alarm.startedAt === now)).toBe(true);
      expect(await summariesAfter(before)).toEqual([
        { action: '设备离线', targetLabel: `${ids.length} 台设备` },
        { action: '告警产生', targetLabel: `${ids.length - repeating.length} 条离线告警` },
      ]);
    }, 120_000);
  });

  describe('chunks paced by the time they take', () => {
    it('grow after a chunk quicker than the budget and shrink after a slower one, at most twofold, within their bounds', () => {
      const pacing = new ChunkPacing(100, 10, 300);
      pacing.took(100, 1);
      expect(pacing.size).toBe(200);
      pacing.took(200, 10);
      expect(pacing.size).toBe(200);
      pacing.took(200, 5);
      expect(pacing.size).toBe(300);
      pacing.took(300, 300);
      expect(pacing.size).toBe(150);
      // An empty chunk tells nothing.
      pacing.took(0, 50);
      expect(pacing.size).toBe(150);
      const single = new ChunkPacing(1, 10, 300);
      single.took(1, 1_000);
      expect(single.size).toBe(1);
    });
  });

  describe('a flip and its history are one transaction', () => {
    /** Makes every write of a status history row fail until the returned function is called. */
    const historyUnavailable = async (): Promise<() => Promise<void>> => {
      if (ctx().database.dialect === 'sqlite') {
        await sql`create trigger history_unavailable before insert on hotel_device_transition begin select raise(abort, 'history unavailable'); end`.execute(db());
        return async () => void (await sql`drop trigger history_unavailable`.execute(db()));
      }
      await sql`create function history_unavailable() returns trigger language plpgsql as $$ begin raise exception 'history unavailable'; end $$`.execute(db());
      await sql`create trigger history_unavailable before insert on hotel_device_transition for each statement execute function history_unavailable()`.execute(db());
      return async () => {
        await sql`drop trigger history_unavailable on hotel_device_transition`.execute(db());
        await sql`drop function history_unavailable()`.execute(db());
      };
    };

    it('leaves devices online when the sweep cannot write their history, and takes them offline with it on the next run', async () => {
      const { device: d } = await create('TXN-SWEEP');
      const now = Date.now();
      await onlineSince([d.id], now - 10 * MINUTE);
      const restore = await historyUnavailable();
      // The message, not rejects.toThrow: better-sqlite3's error class belongs to the first test
      // file that loaded the addon, which jest's matcher in a later file may not take for an error.
      const failure = await sweep(now).then(
        () => 'swept',
        (error: unknown) => String((error as { message?: unknown }).message),
      );
      expect(failure).toMatch(/history unavailable/);
      await restore();
      expect(await stored(d.id)).toMatchObject({ online: 1, offlineSince: null });
      expect(await transitionsOf(d.id)).toEqual([]);
      expect(await alarmsOf(d.id)).toEqual([]);

      expect(await sweep(now + 1)).toBe('已将 1 台超过 5 分钟没有心跳的设备标记为离线');
      expect(await transitionsOf(d.id)).toEqual([{ online: 0, at: now + 1, cause: 'sweep' }]);
      expect(await alarmsOf(d.id)).toMatchObject([{ type: 'offline', clearedAt: null }]);
    });

    it('leaves a device offline, its alarm active, when its heartbeat cannot write the history; the next heartbeat brings it back', async () => {
      const { device: d, deviceKey } = await create('TXN-BEAT');
      const now = Date.now();
      await onlineSince([d.id], now - 10 * MINUTE);
      await sweep(now);
      const restore = await historyUnavailable();
      const refused = await ctx().app.inject({ method: 'POST', url: '/api/hotel/device/heartbeat', headers: { 'x-device-key': deviceKey }, payload: { sn: 'TXN-BEAT' } });
      await restore();
      expect(refused.json()).toMatchObject({ code: 500 });
      expect(await stored(d.id)).toMatchObject({ online: 0, offlineSince: now });
      expect(await alarmsOf(d.id)).toMatchObject([{ clearedAt: null }]);

      await heartbeat(ctx(), 'TXN-BEAT', deviceKey);
      expect(await stored(d.id)).toMatchObject({ online: 1 });
      expect((await transitionsOf(d.id)).map((t) => t.cause)).toEqual(['sweep', 'heartbeat']);
      expect(await alarmsOf(d.id)).toMatchObject([{ clearedBy: '系统' }]);
    });
  });

  describe('per-type timeouts', () => {
    it('sweeps each type by its own timeout, others by the task minutes, in one pass', async () => {
      const lock = await create('TMO-LOCK', 'lock');
      const tv = await create('TMO-TV', 'tv');
      const panel = await create('TMO-PANEL', 'panel');
      expectOk(await ctx().call('/hotel/alarm/timeout/edit', { type: 'lock', minutes: 2 }, admin));
      expect(expectOk(await ctx().call('/hotel/alarm/timeout/edit', { type: 'tv', minutes: 30 }, admin))).toEqual({ type: 'tv', label: '电视', minutes: 30 });
      const list = expectOk(await ctx().call('/hotel/alarm/timeout/inquire', null, admin));
      expect(list.defaultMinutes).toBe(5);
      expect(list.types).toEqual(
        expect.arrayContaining([
          { type: 'lock', label: '智能门锁', minutes: 2 },
          { type: 'tv', label: '电视', minutes: 30 },
          { type: 'panel', label: '客控面板', minutes: null },
        ]),
      );

      const now = Date.now();
      // Ten minutes quiet: past the lock's 2 and the default 5, within the TV's 30.
      await onlineSince([lock.device.id, tv.device.id, panel.device.id], now - 10 * MINUTE);
      expect(await sweep(now)).toBe('已将 2 台超过 5 分钟没有心跳的设备标记为离线（2 种设备类型按各自的超时时间）');
      expect((await stored(lock.device.id)).online).toBe(0);
      expect((await stored(panel.device.id)).online).toBe(0);
      expect((await stored(tv.device.id)).online).toBe(1);

      // Three minutes quiet: only the lock's 2-minute timeout has passed.
      await onlineSince([lock.device.id, panel.device.id], now - 3 * MINUTE);
      await sweep(now);
      expect((await stored(lock.device.id)).online).toBe(0);
      expect((await stored(panel.device.id)).online).toBe(1);

      // Removing a type's timeout gives it the default again.
      expect(expectOk(await ctx().call('/hotel/alarm/timeout/edit', { type: 'tv', minutes: null }, admin))).toMatchObject({ minutes: null });
      await sweep(now);
      expect((await stored(tv.device.id)).online).toBe(0);
      expectOk(await ctx().call('/hotel/alarm/timeout/edit', { type: 'lock', minutes: null }, admin));
    });

    it('refuses a type outside the dictionary and minutes out of range', async () => {
      expect(await ctx().call('/hotel/alarm/timeout/edit', { type: 'toaster', minutes: 5 }, admin)).toEqual({
        code: 400,
        msg: '设备类型不正确：请从数据字典的设备类型中选择',
        data: null,
      });
      expect(await ctx().call('/hotel/alarm/timeout/edit', { type: 'lock', minutes: 0 }, admin)).toMatchObject({ code: 400 });
    });
  });

  describe('alarms', () => {
    it('raises on offline, repeats into the active alarm, is acknowledged, auto-cleared by a heartbeat, and raised anew afterwards', async () => {
      const { device: d, deviceKey } = await create('ALM-0001');
      const t0 = Date.now();
      await onlineSince([d.id], t0 - 10 * MINUTE);
      await sweep(t0);
      let alarms = await alarmsOf(d.id);
      expect(alarms).toMatchObject([
        { type: 'offline', severity: 'major', message: '设备心跳超时，已离线', startedAt: t0, lastAt: t0, count: 1, clearedAt: null, acknowledgedAt: null },
      ]);
      const alarmId = alarms[0].id;

      // The same condition again while the alarm is active: one row, count 2, latest time.
      await offlineAgain(d, t0 + 1000);
      alarms = await alarmsOf(d.id);
      expect(alarms).toMatchObject([{ id: alarmId, count: 2, startedAt: t0, lastAt: t0 + 1000 }]);

      const acked = await ctx().call('/hotel/alarm/acknowledge', { ids: [alarmId] }, admin);
      expect(acked).toEqual({ code: 200, msg: '已确认 1 条告警', data: { count: 1 } });
      const [ackedRow] = await alarmsOf(d.id);
      expect(ackedRow).toMatchObject({ acknowledgedBy: 'admin', clearedAt: null });
      expect(ackedRow.acknowledgedAt).toBeGreaterThanOrEqual(t0);
      expect(await ctx().call('/hotel/alarm/acknowledge', { ids: [alarmId] }, admin)).toEqual({ code: 409, msg: '告警已确认，不能重复确认', data: null });
      expect(await ctx().call('/hotel/alarm/acknowledge', { ids: [alarmId, 999_999] }, admin)).toEqual({ code: 404, msg: '告警不存在', data: null });

      await heartbeat(ctx(), 'ALM-0001', deviceKey);
      const [cleared] = await alarmsOf(d.id);
      expect(cleared).toMatchObject({ id: alarmId, clearedBy: '系统' });
      expect(cleared.clearedAt).toBeGreaterThanOrEqual(t0);
      expect(await ctx().call('/hotel/alarm/clear', { ids: [alarmId] }, admin)).toEqual({ code: 409, msg: '告警已清除，不能重复清除', data: null });

      // Offline again after the clear: a new alarm, not the old one counted up.
      const t1 = Date.now() + 10 * MINUTE;
      await sweep(t1);
      alarms = await alarmsOf(d.id);
      expect(alarms).toHaveLength(2);
      expect(alarms[1]).toMatchObject({ count: 1, startedAt: t1, clearedAt: null });

      expect(await ctx().call('/hotel/alarm/clear', { ids: [alarms[1].id] }, admin)).toEqual({ code: 200, msg: '已清除 1 条告警', data: { count: 1 } });
      expect((await alarmsOf(d.id))[1]).toMatchObject({ clearedBy: 'admin' });
      expect(await ctx().call('/hotel/alarm/clear', { ids: [alarms[1].id] }, admin)).toEqual({ code: 409, msg: '告警已清除，不能重复清除', data: null });
      expect(await ctx().call('/hotel/alarm/clear', { ids: [999_999] }, admin)).toEqual({ code: 404, msg: '告警不存在', data: null });
    });

    it('keeps one active alarm per device and type in the database itself, also under concurrent raises', async () => {
      const { device: d } = await create('ALM-0002');
      const now = Date.now();
      const raise = (at: number) => offlineAgain(d, at);
      await Promise.all([raise(now), raise(now + 1), raise(now + 2)]);
      expect(await alarmsOf(d.id)).toMatchObject([{ count: 3, clearedAt: null }]);

      const second = { deviceId: d.id, type: 'offline', severity: 'major', message: 'x', startedAt: now, lastAt: now };
      const refused = await db()
        .insertInto('hotelAlarm')
        .values(second)
        .execute()
        .then(
          () => null,
          (error: unknown) => String((error as { message?: unknown }).message),
        );
      expect(refused).toMatch(/unique|duplicate/i);
      await db().updateTable('hotelAlarm').set({ clearedAt: now, clearedBy: 'admin' }).where('deviceId', '=', d.id).execute();
      await db().insertInto('hotelAlarm').values(second).execute();
      expect(await alarmsOf(d.id)).toHaveLength(2);
    });

    it('lists alarms with filters and sort, newest first', async () => {
      const a = await create('LST-ALPHA');
      const b = await create('LST-BETA');
      const now = Date.now() + 60 * MINUTE;
      await onlineSince([a.device.id, b.device.id], now - 10 * MINUTE);
      await sweep(now);
      const [alarmA] = await alarmsOf(a.device.id);
      const [alarmB] = await alarmsOf(b.device.id);
      await offlineAgain(b.device, now + 1);
      expectOk(await ctx().call('/hotel/alarm/acknowledge', { ids: [alarmA.id] }, admin));

      const inquire = async (params: Record<string, unknown>, sort?: Record<string, unknown>) =>
        expectOk(await ctx().call('/hotel/alarm/inquire', { size: 50, current: 1, params: { device: 'LST-', ...params }, ...(sort ? { sort } : {}) }, admin)).records.map(
          (r) => r.deviceSn,
        );
      expect(await inquire({})).toEqual(['LST-BETA', 'LST-ALPHA']);
      expect(await inquire({ acknowledged: 1 })).toEqual(['LST-ALPHA']);
      // A notification's link names one alarm.
      expect(await inquire({ id: Number(alarmB.id) })).toEqual(['LST-BETA']);
      expect(await inquire({ acknowledged: 0 })).toEqual(['LST-BETA']);
      expect(await inquire({ device: '设备 LST-AL' })).toEqual(['LST-ALPHA']);
      expect(await inquire({ severity: 'major', status: 'active' })).toHaveLength(2);
      expect(await inquire({ severity: 'critical' })).toEqual([]);
      expect(await inquire({ startAt: now + 1 })).toEqual([]);
      expect(await inquire({ startAt: now, endAt: now })).toHaveLength(2);
      expect(await inquire({}, { field: 'count', order: 'descend' })).toEqual(['LST-BETA', 'LST-ALPHA']);
      expect(await inquire({}, { field: 'count', order: 'ascend' })).toEqual(['LST-ALPHA', 'LST-BETA']);
      expectOk(await ctx().call('/hotel/alarm/clear', { ids: [alarmA.id, alarmB.id] }, admin));
      expect(await inquire({ status: 'active' })).toEqual([]);
      expect(await inquire({ status: 'cleared' })).toEqual(['LST-BETA', 'LST-ALPHA']);
      const [record] = expectOk(await ctx().call('/hotel/alarm/inquire', { size: 1, current: 1, params: { device: 'LST-BETA' } }, admin)).records;
      expect(record).toMatchObject({ deviceName: '设备 LST-BETA', count: 2, clearedBy: 'admin', acknowledgedBy: null });
    });

    it('puts system raises and clears and staff acknowledgements in the operation log', async () => {
      const { device: d, deviceKey } = await create('AUD-0001');
      const now = Date.now();
      await onlineSince([d.id], now - 10 * MINUTE);
      await sweep(now);
      const [alarm] = await alarmsOf(d.id);
      expectOk(await ctx().call('/hotel/alarm/acknowledge', { ids: [alarm.id] }, admin));
      await heartbeat(ctx(), 'AUD-0001', deviceKey);
      const records = await db()
        .selectFrom('sysOperationLog')
        .select(['operatorType', 'operatorName', 'module', 'action', 'targetType', 'targetId', 'targetLabel', 'path', 'changes'])
        .where('targetType', '=', 'alarm')
        .where('targetId', '=', String(alarm.id))
        .orderBy('id')
        .execute();
      const acknowledgement = records.find((r) => r.action === '确认告警');
      expect(JSON.parse(acknowledgement!.changes)).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'acknowledgedBy', before: null, after: 'admin' })]));
      expect(records.map(({ changes: _changes, ...rest }) => rest)).toEqual([
        {
          operatorType: 'system',
          operatorName: '系统',
          module: '告警管理',
          action: '告警产生',
          targetType: 'alarm',
          targetId: String(alarm.id),
          targetLabel: '设备离线：设备 AUD-0001（AUD-0001）',
          path: '',
        },
        {
          operatorType: 'user',
          operatorName: 'admin',
          module: '告警管理',
          action: '确认告警',
          targetType: 'alarm',
          targetId: String(alarm.id),
          targetLabel: '设备离线：设备 AUD-0001（AUD-0001）',
          path: '/hotel/alarm/acknowledge',
        },
        {
          operatorType: 'system',
          operatorName: '系统',
          module: '告警管理',
          action: '告警清除',
          targetType: 'alarm',
          targetId: String(alarm.id),
          targetLabel: '设备离线：设备 AUD-0001（AUD-0001）',
          path: '',
        },
      ]);
    });

    it('records a mass outage as one summary record for the alarms and one for the status changes', async () => {
      const now = Date.now() + 180 * MINUTE;
      const stamp = { createdAt: now, updatedAt: now };
      const devices = Array.from({ length: 101 }, (_, i) => ({
        name: `批量 ${i}`,
        sn: `MASS-${String(i).padStart(4, '0')}`,
        type: 'lock',

        state: 1,
        keyHash: 'x',
        remark: '',
        ...stamp,
      }));
      const inserted = await db().insertInto('hotelDevice').values(devices).returning('id').execute();
      await onlineSince(
        inserted.map((row) => row.id),
        now - 10 * MINUTE,
      );
      const before = await db()
        .selectFrom('sysOperationLog')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirstOrThrow();
      await sweep(now);
      const alarmRecords = await db()
        .selectFrom('sysOperationLog')
        .select(['action', 'targetId', 'targetLabel', 'msg'])
        .where('id', '>', Number(before.id))
        .where('targetType', '=', 'alarm')
        .execute();
      expect(alarmRecords).toEqual([{ action: '告警产生', targetId: '', targetLabel: '101 条离线告警', msg: '101 台设备离线，产生离线告警' }]);
      // Each device's change is still in its status history (hotel_device_transition).
      const statusRecords = await db()
        .selectFrom('sysOperationLog')
        .select(['operatorType', 'operatorName', 'action', 'targetId', 'targetLabel', 'msg'])
        .where('id', '>', Number(before.id))
        .where('targetType', '=', 'device')
        .execute();
      expect(statusRecords).toEqual([
        { operatorType: 'system', operatorName: '系统', action: '设备离线', targetId: '', targetLabel: '101 台设备', msg: '101 台设备心跳超时，状态由在线变为离线' },
      ]);
      const history = await db()
        .selectFrom('hotelDeviceTransition as t')
        .innerJoin('hotelDevice as d', 'd.id', 't.deviceId')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('d.sn', 'like', 'MASS-%')
        .where('t.online', '=', 0)
        .where('t.cause', '=', 'sweep')
        .executeTakeFirstOrThrow();
      expect(Number(history.n)).toBe(101);
      const open = await db()
        .selectFrom('hotelAlarm as a')
        .innerJoin('hotelDevice as d', 'd.id', 'a.deviceId')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('d.sn', 'like', 'MASS-%')
        .where('a.clearedAt', 'is', null)
        .executeTakeFirstOrThrow();
      expect(Number(open.n)).toBe(101);
    });

    it('shows open alarms on the panel', async () => {
      const { device: d } = await create('PNL-0001');
      const now = Date.now() + 240 * MINUTE;
      await onlineSince([d.id], now - 10 * MINUTE);
      await sweep(now);
      const open = await db()
        .selectFrom('hotelAlarm')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('clearedAt', 'is', null)
        .executeTakeFirstOrThrow();
      const panel = expectOk(await ctx().call('/sys/panel/inquire', null, admin));
      expect(panel.alarmsActive).toBe(Number(open.n));
      expect(panel.latestAlarms[0]).toMatchObject({ deviceSn: 'PNL-0001', type: 'offline', lastAt: now, count: 1 });
    });
  });

  describe('access', () => {
    it('refuses the alarm endpoints to a role without the alarm menu, and lets device-list holders read a device status', async () => {
      const { token } = await signedInOperator(ctx(), admin, 'device_only', await menuGrants(ctx(), '/hotel/device'));
      const { device: d } = await create('ACL-ALM1');
      const bodies: Record<string, unknown> = {
        '/hotel/alarm/inquire': { size: 20, current: 1 },
        '/hotel/alarm/acknowledge': { ids: [1] },
        '/hotel/alarm/clear': { ids: [1] },
        '/hotel/alarm/timeout/inquire': null,
        '/hotel/alarm/timeout/edit': { type: 'lock', minutes: 3 },
      };
      for (const key of ALARM_ENDPOINTS) {
        expect([key, await ctx().call(key, bodies[key] as never, token)]).toEqual([key, { code: 403, msg: '没有权限执行该操作', data: null }]);
      }
      expect(await db().selectFrom('hotelDeviceTypeTimeout').selectAll().execute()).toEqual([]);
      expect(await ctx().call('/hotel/device/status', { id: d.id, size: 10, current: 1 }, token)).toMatchObject({ code: 200 });
    });
  });
});

describe('migration 010 on a database that has roles', () => {
  for (const dialect of dialects()) {
    it(`[${dialect}] adds the device status resource and grants it to the roles holding the device list`, async () => {
      const target = await createTestDatabase(dialect);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema as of migration 009, not the app's
      const db = await openTestKysely<any>(target);
      try {
        expect(await migrateUpTo(db, dialect, '010')).toBeUndefined();
        const now = Date.now();
        const stamp = { createdAt: now, updatedAt: now };
        const insert = async (table: string, values: Record<string, unknown>) => Number((await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow()).id);
        const menu = await insert('sys_menu', { name: '设备管理', path: '/hotel/device', element: 'hotel/device', ...stamp });
        const list = await insert('sys_resource', { menuId: menu, name: '查询设备', type: 'api_inquire', path: '/hotel/device/inquire', ...stamp });
        const holder = await insert('sys_role', { name: '前台', ...stamp });
        const other = await insert('sys_role', { name: '财务', ...stamp });
        await db.insertInto('sys_role_auth').values({ roleId: holder, type: 'resource', resource: list }).execute();

        expect(await migrateUpTo(db, dialect)).toBeUndefined();

        const status = await db.selectFrom('sys_resource').selectAll().where('path', '=', '/hotel/device/status').executeTakeFirstOrThrow();
        expect(status).toMatchObject({ menuId: menu, type: 'api_status', name: '设备状态记录' });
        const grants = await db.selectFrom('sys_role_auth').select(['roleId']).where('resource', '=', status.id).execute();
        expect(grants.map((g) => Number(g.roleId))).toEqual([holder]);
        expect(grants.map((g) => Number(g.roleId))).not.toContain(other);
      } finally {
        await db.destroy();
        await target.drop();
      }
    }, 30_000);
  }
});
