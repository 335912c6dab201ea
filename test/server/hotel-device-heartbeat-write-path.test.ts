/**
 * Issue 10: the heartbeat's write path (services/device-status/last-seen.ts). A device coming online
 * is written before its heartbeat is answered; the heartbeats of an online device are held and
 * written together at the next flush, which never gives an offline device a fresh time without
 * its transition. The flush interval is long here, so only the test's own flush() writes; the
 * crash itself is exercised on the built product in test/deploy/heartbeat-crash.test.ts.
 */
import { describeOnEachDatabase, type TestApp } from './support/harness';
import { runTask } from '../../src/server/services/scheduler/tasks';
import { expectOk, setPresence } from './support/sys-fixtures';
import type { CompiledQuery } from 'kysely';
import { queryPlan } from './support/query-plan';
import { heartbeatLookup } from '../../src/server/routes/hotel/device/heartbeat';
import { FLUSH_BATCH } from '../../src/server/services/device-status/last-seen';
import { listParameter } from '../../src/server/lib/id-list';
import { deviceWithPresence } from '../../src/server/routes/hotel/device/presence';
import { SYSTEM_SCOPE } from '../../src/server/lib/data-scope';

const MINUTE = 60_000;

/** The device ids a last-seen flush statement writes, from its parameters (id-list.ts idValueRows). */
function flushedIds(dialect: string, parameters: readonly unknown[]): number[] {
  if (dialect === 'sqlite') return (JSON.parse(parameters[0] as string) as Array<[number, number]>).map(([id]) => id);
  return parameters[0] as number[];
}

async function heartbeat(app: TestApp, sn: string, key: string): Promise<number> {
  const response = await app.app.inject({ method: 'POST', url: '/api/hotel/device/heartbeat', headers: { 'x-device-key': key }, payload: { sn } });
  const answer = response.json<{ code: number; data: { serverTime: number } }>();
  expect(answer.code).toBe(200);
  return answer.data.serverTime;
}

describeOnEachDatabase(
  'hotel/device heartbeat write path',
  (ctx) => {
    let admin: string;
    beforeAll(async () => {
      admin = await ctx().login();
    });
    const create = async (sn: string) => expectOk(await ctx().call('/hotel/device/creation', { name: sn, sn, type: 'lock', state: 1, remark: '' }, admin));
    const stored = async (id: number) => (await deviceWithPresence(ctx().database.db, SYSTEM_SCOPE, id))!;
    const transitions = (id: number) => ctx().database.db.selectFrom('hotelDeviceTransition').select(['online', 'cause']).where('deviceId', '=', id).orderBy('id').execute();

    it('writes a device coming online before answering, and holds the beats of an online device for the flush', async () => {
      const { device, deviceKey } = await create('WP-0001');
      const cameOnline = await heartbeat(ctx(), 'WP-0001', deviceKey);
      expect(await stored(device.id)).toMatchObject({ online: 1, lastSeenAt: cameOnline, onlineSince: cameOnline });

      await heartbeat(ctx(), 'WP-0001', deviceKey);
      const latest = await heartbeat(ctx(), 'WP-0001', deviceKey);
      expect((await stored(device.id)).lastSeenAt).toBe(cameOnline);
      expect(ctx().app.lastSeen.size).toBe(1);

      await ctx().app.lastSeen.flush();
      expect(await stored(device.id)).toMatchObject({ online: 1, lastSeenAt: latest, onlineSince: cameOnline, version: 0 });
      expect(ctx().app.lastSeen.size).toBe(0);
      expect(await transitions(device.id)).toEqual([{ online: 1, cause: 'heartbeat' }]);
    });

    it('brings a device swept offline before the flush back online through a recorded transition', async () => {
      const { device, deviceKey } = await create('WP-0002');
      await heartbeat(ctx(), 'WP-0002', deviceKey);
      const held = await heartbeat(ctx(), 'WP-0002', deviceKey);
      // Taken offline meanwhile (another instance's sweep, say), before this instance flushed.
      await ctx().database.db.updateTable('hotelDevicePresence').set({ online: 0, offlineSince: held }).where('id', '=', device.id).execute();

      await ctx().app.lastSeen.flush();
      expect(await stored(device.id)).toMatchObject({ online: 1, lastSeenAt: held, onlineSince: held });
      expect(await transitions(device.id)).toEqual([
        { online: 1, cause: 'heartbeat' },
        { online: 1, cause: 'heartbeat' },
      ]);
    });

    it('leaves a device disabled before the flush offline', async () => {
      const { device, deviceKey } = await create('WP-0003');
      const cameOnline = await heartbeat(ctx(), 'WP-0003', deviceKey);
      await heartbeat(ctx(), 'WP-0003', deviceKey);
      const edited = expectOk(await ctx().call('/hotel/device/edit', { id: device.id, version: 0, name: 'WP-0003', sn: 'WP-0003', type: 'lock', state: 0, remark: '' }, admin));
      expect(edited).toMatchObject({ online: 0 });

      await ctx().app.lastSeen.flush();
      expect(await stored(device.id)).toMatchObject({ online: 0, state: 0, lastSeenAt: cameOnline });
    });

    it('the offline sweep counts the beats this instance holds: a device heard from is not stale', async () => {
      const { device, deviceKey } = await create('WP-0004');
      await heartbeat(ctx(), 'WP-0004', deviceKey);
      // Quiet for ten minutes in the database, but it beat again just now (held, not yet written).
      await ctx()
        .database.db.updateTable('hotelDevicePresence')
        .set({ lastSeenAt: Date.now() - 10 * MINUTE })
        .where('id', '=', device.id)
        .execute();
      const latest = await heartbeat(ctx(), 'WP-0004', deviceKey);

      await runTask('device.offlineSweep', { minutes: 5 }, { app: ctx().app, now: Date.now() });
      expect(await stored(device.id)).toMatchObject({ online: 1, lastSeenAt: latest });
    });

    it('writes a thousand and more held devices in batches in id order, each with its own latest time', async () => {
      const devices = Array.from({ length: 1205 }, (_, i) => ({ id: 0, name: `B${i}`, sn: `WP-B-${String(i).padStart(4, '0')}` }));
      const now = Date.now();
      const inserted = await ctx()
        .database.db.insertInto('hotelDevice')
        .values(
          devices.map((d) => ({
            name: d.name,
            sn: d.sn,
            type: 'lock',

            keyHash: 'x',
            state: 1,
            remark: '',
            version: 0,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .returning('id')
        .execute();
      inserted.forEach((row, i) => (devices[i].id = row.id));
      await setPresence(
        ctx().database.db,
        inserted.map((row) => row.id),
        { online: 1, lastSeenAt: now - MINUTE },
      );
      // Noted newest id first, as a fleet's heartbeats come in any order.
      for (let i = devices.length - 1; i >= 0; i -= 1) ctx().app.lastSeen.note(devices[i], now + i);
      const statements = jest.spyOn(ctx().database.db.getExecutor(), 'executeQuery');
      try {
        await ctx().app.lastSeen.flush();
        // Short statements, each holding the event loop (on SQLite) for a bounded batch.
        const flushes = statements.mock.calls.filter(([query]) => /^update hotel_device_presence set last_seen_at/.test(query.sql.trim()));
        expect(flushes).toHaveLength(Math.ceil(devices.length / FLUSH_BATCH));
        // In the table's order, so each batch writes one stretch of it, not a page per row.
        const written = flushes.flatMap(([query]) => flushedIds(ctx().database.dialect, query.parameters));
        expect(written).toEqual(devices.map((d) => d.id).sort((a, b) => a - b));
      } finally {
        statements.mockRestore();
      }
      const rows = await ctx()
        .database.db.selectFrom('hotelDevicePresence')
        .select(['id', 'lastSeenAt'])
        .where(
          'id',
          'in',
          devices.map((d) => d.id),
        )
        .orderBy('id')
        .execute();
      expect(rows.map((row) => row.lastSeenAt)).toEqual(devices.map((_, i) => now + i));
    });

    it('looks up the devices of heartbeats that arrive together with one query, and answers each on its own', async () => {
      const first = await create('WP-L-01');
      const second = await create('WP-L-02');
      const disabled = expectOk(await ctx().call('/hotel/device/creation', { name: 'WP-L-03', sn: 'WP-L-03', type: 'lock', state: 0, remark: '' }, admin));
      const db = ctx().database.db;
      const lookups = jest.spyOn(db, 'executeQuery');
      try {
        const beat = (sn: string, key: string) => ctx().app.inject({ method: 'POST', url: '/api/hotel/device/heartbeat', headers: { 'x-device-key': key }, payload: { sn } });
        const answers = await Promise.all([
          beat('WP-L-01', first.deviceKey),
          beat('WP-L-02', second.deviceKey),
          beat('WP-L-01', second.deviceKey),
          beat('WP-L-03', disabled.deviceKey),
          beat('WP-L-99', first.deviceKey),
          beat('WP-L-01', first.deviceKey),
        ]);
        expect(answers.map((answer) => answer.json<{ code: number }>().code)).toEqual([200, 200, 401, 403, 401, 200]);
        const reads = lookups.mock.calls.map(([query]) => query as CompiledQuery).filter((query) => /key_hash/.test(query.sql) && /^select/i.test(query.sql));
        // One query, for the distinct serial numbers.
        expect(reads.map((query) => query.parameters)).toEqual([[listParameter(ctx().database.dialect, ['WP-L-01', 'WP-L-02', 'WP-L-03', 'WP-L-99'])]]);
      } finally {
        lookups.mockRestore();
      }
      expect(await stored(first.device.id)).toMatchObject({ online: 1 });
      expect(await stored(disabled.device.id)).toMatchObject({ online: 0 });
    });

    it('finds each device of a batch through the sn index, never reading the table', async () => {
      const compiled = heartbeatLookup(ctx().database.db, ctx().database.dialect).compile();
      const plan = await queryPlan(ctx(), { ...compiled, parameters: [listParameter(ctx().database.dialect, ['WP-L-01', 'WP-L-02'])] });
      expect(plan).toMatch(/hotel_device_sn_key|sqlite_autoindex_hotel_device_1 \(sn=\?\)/);
      expect(plan).not.toMatch(/SCAN hotel_device|Seq Scan/);
    });
  },
  { heartbeat: { flushMs: 600_000 } },
);
