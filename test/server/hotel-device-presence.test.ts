/**
 * A device's presence lives in hotel_device_presence (migration 017): one row per device, created
 * by the insert that creates the device, deleted with it, and the only table heartbeats and the
 * offline sweep write.
 */
import { sql, type Kysely } from 'kysely';
import { createTestDatabase, describeOnEachDatabase, dialects, type TestApp } from './support/harness';
import { migrateUpTo, openTestKysely } from './support/migrations';
import { deviceRow, expectOk } from './support/sys-fixtures';
import { runTask } from '../../src/server/services/scheduler/tasks';
import type { Database } from '../../src/server/db/schema';

const MINUTE = 60_000;

describe('migration 017 moves each device presence into its own table', () => {
  for (const dialect of dialects()) {
    it(`[${dialect}] keeps every device's online state and times, and drops the columns from hotel_device`, async () => {
      const target = await createTestDatabase(dialect);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema as of migration 016, not the app's
      const db = await openTestKysely<any>(target);
      try {
        expect(await migrateUpTo(db, dialect, '017')).toBeUndefined();
        const now = Date.now();
        const device = (sn: string, presence: Record<string, number | null>) => ({
          name: sn,
          sn,
          type: 'lock',

          state: 1,
          remark: '',
          keyHash: 'x',
          createdAt: now,
          updatedAt: now,
          ...presence,
        });
        const inserted = await db
          .insertInto('hotel_device')
          .values([
            device('P1', { online: 1, lastSeenAt: now - 1000, onlineSince: now - 5000, offlineSince: now - 9000 }),
            device('P2', { online: 0, lastSeenAt: now - 2000, onlineSince: null, offlineSince: now - 3000 }),
            device('P3', { online: 0, lastSeenAt: null, onlineSince: null, offlineSince: null }),
          ])
          .returning('id')
          .execute();
        const [p1, p2, p3] = inserted.map((row: { id: number | string }) => Number(row.id));

        expect(await migrateUpTo(db, dialect)).toBeUndefined();

        const presence = await db.selectFrom('hotel_device_presence').selectAll().orderBy('id').execute();
        expect(presence.map((row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value === null ? null : Number(value)])))).toEqual(
          [
            { id: p1, online: 1, lastSeenAt: now - 1000, onlineSince: now - 5000, offlineSince: now - 9000 },
            { id: p2, online: 0, lastSeenAt: now - 2000, onlineSince: null, offlineSince: now - 3000 },
            { id: p3, online: 0, lastSeenAt: null, onlineSince: null, offlineSince: null },
          ],
        );
        const columns = Object.keys(await db.selectFrom('hotel_device').selectAll().where('id', '=', p1).executeTakeFirstOrThrow());
        expect(columns).not.toEqual(expect.arrayContaining(['online']));
        expect(columns.filter((column) => /online|lastSeen|offline/.test(column))).toEqual([]);
      } finally {
        await db.destroy();
        await target.drop();
      }
    }, 30_000);
  }
});

describeOnEachDatabase('hotel/device presence', (ctx) => {
  const db = (): Kysely<Database> => ctx().database.db;
  const presenceOf = (ids: number[]) => db().selectFrom('hotelDevicePresence').selectAll().where('id', 'in', ids).orderBy('id').execute();

  it('gives every device inserted (one or many in a statement) its presence row, offline and never seen, and deletes it with the device', async () => {
    const one = await db().insertInto('hotelDevice').values(deviceRow('PRES-ONE')).returning('id').executeTakeFirstOrThrow();
    const many = await db()
      .insertInto('hotelDevice')
      .values(['PRES-A', 'PRES-B', 'PRES-C'].map((sn) => deviceRow(sn)))
      .returning('id')
      .execute();
    const ids = [one.id, ...many.map((row) => row.id)];
    expect(await presenceOf(ids)).toEqual(ids.map((id) => ({ id, online: 0, lastSeenAt: null, onlineSince: null, offlineSince: null })));

    await db().deleteFrom('hotelDevice').where('id', 'in', ids).execute();
    expect(await presenceOf(ids)).toEqual([]);
  });

  it('refuses a presence row without its device', async () => {
    // The message, not `rejects.toThrow`: better-sqlite3's native side builds its errors from the
    // class of the first test file that loaded it, which is no Error of a later file's realm.
    const refusal = await db()
      .insertInto('hotelDevicePresence')
      .values({ id: 987_654 })
      .execute()
      .then(
        () => 'inserted',
        (error: { message?: unknown }) => String(error.message),
      );
    expect(refusal).toMatch(/foreign key/i);
    expect(await db().selectFrom('hotelDevicePresence').selectAll().where('id', '=', 987_654).execute()).toEqual([]);
  });

  describe('heartbeats and the sweep', () => {
    let admin: string;
    beforeAll(async () => {
      admin = await ctx().login();
    });
    const heartbeat = async (app: TestApp, sn: string, key: string) => {
      const response = await app.app.inject({ method: 'POST', url: '/api/hotel/device/heartbeat', headers: { 'x-device-key': key }, payload: { sn } });
      expect(response.json()).toMatchObject({ code: 200 });
    };
    /** The device row's physical version (PostgreSQL xmin; SQLite: none to compare, so the row itself). */
    const deviceVersion = async (id: number) =>
      ctx().database.dialect === 'postgres'
        ? (await sql<{ xmin: string }>`select xmin::text from hotel_device where id = ${id}`.execute(db())).rows[0].xmin
        : await db().selectFrom('hotelDevice').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('writes heartbeats, their flush and the sweep to the presence table only, never to the device row', async () => {
      const { device, deviceKey } = expectOk(await ctx().call('/hotel/device/creation', { name: '前台门锁', sn: 'PRES-HB-1', type: 'lock', state: 1, remark: '' }, admin));
      const untouched = await deviceVersion(device.id);

      await heartbeat(ctx(), 'PRES-HB-1', deviceKey);
      await heartbeat(ctx(), 'PRES-HB-1', deviceKey);
      await ctx().app.lastSeen.flush();
      const [online] = await presenceOf([device.id]);
      expect(online).toMatchObject({ online: 1, onlineSince: expect.any(Number) });
      await db()
        .updateTable('hotelDevicePresence')
        .set({ lastSeenAt: Date.now() - 10 * MINUTE })
        .where('id', '=', device.id)
        .execute();
      await runTask('device.offlineSweep', { minutes: 5 }, { app: ctx().app, now: Date.now() });
      expect((await presenceOf([device.id]))[0]).toMatchObject({ online: 0, offlineSince: expect.any(Number) });

      expect(await deviceVersion(device.id)).toEqual(untouched);
      // What the screens show comes from the presence table.
      const listed = expectOk(await ctx().call('/hotel/device/inquire', { size: 20, current: 1, params: { sn: 'PRES-HB-1', online: 0 } }, admin));
      expect(listed.records).toMatchObject([{ id: device.id, online: 0, onlineSince: online.onlineSince, offlineSince: expect.any(Number) }]);
    });

    it('takes a device it disables offline in the same edit, without a transition', async () => {
      const { device, deviceKey } = expectOk(await ctx().call('/hotel/device/creation', { name: '客房空调', sn: 'PRES-ED-1', type: 'aircon', state: 1, remark: '' }, admin));
      await heartbeat(ctx(), 'PRES-ED-1', deviceKey);
      const edited = expectOk(
        await ctx().call('/hotel/device/edit', { id: device.id, version: device.version, name: '客房空调', sn: 'PRES-ED-1', type: 'aircon', state: 0, remark: '' }, admin),
      );
      expect(edited).toMatchObject({ state: 0, online: 0 });
      expect((await presenceOf([device.id]))[0].online).toBe(0);
      const transitions = await db().selectFrom('hotelDeviceTransition').select('online').where('deviceId', '=', device.id).execute();
      expect(transitions).toEqual([{ online: 1 }]);
    });
  });
});
