/**
 * The panel (sys/panel): its counts and chart series — devices online over 24 h from the hourly
 * samples, sign-ins and schedule runs per Shanghai day over 14 days, devices by type — on both
 * databases.
 */
import { describeOnEachDatabase, type TestApp } from './support/harness';
import { expectOk, setPresence } from './support/sys-fixtures';
import { devicesByType, onlineHistory, scheduleRunsPerDay, signInsPerDay } from '../../src/server/routes/sys/panel/charts';
import { runTask } from '../../src/server/services/scheduler/tasks';
import { PANEL_DAYS } from '../../src/contract/sys/panel';
import { SYSTEM_SCOPE } from '../../src/server/lib/data-scope';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Shanghai wall-clock time as epoch ms (UTC+8, no daylight saving). */
const shanghai = (y: number, m: number, d: number, h = 0, min = 0) => Date.UTC(y, m - 1, d, h - 8, min);
/** 2024-03-14 12:00 in Shanghai: "now" for the series tests, far from the real clock. */
const NOW = shanghai(2024, 3, 14, 12);

async function adminId(app: TestApp): Promise<number> {
  return (await app.database.db.selectFrom('sysUser').select('id').where('userName', '=', 'admin').executeTakeFirstOrThrow()).id;
}

/** Login-log rows as the sign-in route writes them (the chain is not what this test is about). */
async function addSignIns(app: TestApp, times: number[], outcome = 'success'): Promise<void> {
  const userId = await adminId(app);
  for (const at of times) {
    signInRowId += 1;
    await app.database.db
      .insertInto('sysLoginLog')
      .values({ id: signInRowId, at, event: 'signIn', outcome, userId, userName: 'admin', ip: '', browser: '', os: '', userAgent: '', msg: '', prevHash: '', hash: '' })
      .execute();
  }
}
let signInRowId = 1_000_000;

async function addRuns(app: TestApp, runs: Array<[number, string]>): Promise<void> {
  const schedule = await app.database.db.selectFrom('sysSchedule').select('id').orderBy('id').executeTakeFirstOrThrow();
  for (const [startedAt, outcome] of runs) {
    await app.database.db
      .insertInto('sysScheduleLog')
      .values({ scheduleId: schedule.id, trigger: 'cron', startedAt, endedAt: outcome === 'running' ? null : startedAt + 10, outcome, message: '', instance: 'test' })
      .execute();
  }
}

describeOnEachDatabase('sys/panel', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });

  it('ships the hourly 设备在线统计 schedule', async () => {
    const page = expectOk(await ctx().call('/sys/schedule/inquire', { size: 20, current: 1, params: { name: '设备在线统计' } }, admin));
    expect(page.records).toHaveLength(1);
    expect(page.records[0]).toMatchObject({ cron: '0 * * * *', task: 'device.onlineSample', params: { days: 7 }, state: 1 });
    expect(page.records[0].nextRunAt! % HOUR).toBe(0);
  });

  describe('sign-ins per day', () => {
    it('counts the successful sign-ins of each Shanghai day of the last 14, oldest first, empty days as 0', async () => {
      await addSignIns(ctx(), [shanghai(2024, 3, 14, 10)], 'wrongPassword');
      await addSignIns(ctx(), [
        shanghai(2024, 3, 13, 23, 59), // yesterday, just before midnight in Shanghai
        shanghai(2024, 3, 14, 0, 1), // today, just after it (still 2024-03-13 in UTC)
        shanghai(2024, 3, 14, 11),
        shanghai(2024, 3, 1, 0, 0), // the first of the 14 days
        shanghai(2024, 2, 29, 23, 59), // one day too old
      ]);
      const series = await signInsPerDay(ctx().database.db, SYSTEM_SCOPE, NOW);
      expect(series).toHaveLength(PANEL_DAYS);
      expect(series[0]).toEqual({ day: '2024-03-01', count: 1 });
      expect(series.at(-2)).toEqual({ day: '2024-03-13', count: 1 });
      expect(series.at(-1)).toEqual({ day: '2024-03-14', count: 2 });
      expect(series.reduce((sum, entry) => sum + entry.count, 0)).toBe(4);
      expect(series.map((entry) => entry.day)).toEqual([...series.map((entry) => entry.day)].sort());
    });

    it('answers today in the panel with this test’s own sign-in counted', async () => {
      const panel = expectOk(await ctx().call('/sys/panel/inquire', {}, admin));
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
      expect(panel.signInsPerDay).toHaveLength(PANEL_DAYS);
      expect(panel.signInsPerDay.at(-1)).toMatchObject({ day: today });
      expect(panel.signInsPerDay.at(-1)!.count).toBeGreaterThanOrEqual(1);
    });
  });

  it('counts finished schedule runs per day and outcome, not running ones nor older ones', async () => {
    await addRuns(ctx(), [
      [shanghai(2024, 3, 14, 3), 'success'],
      [shanghai(2024, 3, 14, 4), 'success'],
      [shanghai(2024, 3, 14, 5), 'failed'],
      [shanghai(2024, 3, 14, 6), 'running'],
      [shanghai(2024, 3, 12, 23, 30), 'failed'],
      [shanghai(2024, 2, 20), 'success'],
    ]);
    const series = await scheduleRunsPerDay(ctx().database.db, NOW);
    expect(series).toHaveLength(PANEL_DAYS);
    expect(series.at(-1)).toEqual({ day: '2024-03-14', success: 2, failed: 1 });
    expect(series.at(-2)).toEqual({ day: '2024-03-13', success: 0, failed: 0 });
    expect(series.at(-3)).toEqual({ day: '2024-03-12', success: 0, failed: 1 });
    expect(series.reduce((sum, entry) => sum + entry.success + entry.failed, 0)).toBe(4);
  });

  describe('devices online over 24 h', () => {
    it('samples online and total devices, and keeps samples for the configured days only', async () => {
      const { db } = ctx().database;
      await db
        .insertInto('hotelDeviceOnlineSample')
        .values({ sampledAt: NOW - 8 * DAY, online: 1, total: 1 })
        .execute();
      await db
        .insertInto('hotelDeviceOnlineSample')
        .values({ sampledAt: NOW - 6 * DAY, online: 2, total: 2 })
        .execute();
      const device = (sn: string) => ({ name: sn, sn, type: 'lock', state: 1, remark: '' });
      expectOk(await ctx().call('/hotel/device/creation', device('PANEL-ONLINE-1'), admin));
      expectOk(await ctx().call('/hotel/device/creation', device('PANEL-ONLINE-2'), admin));
      const first = await db.selectFrom('hotelDevice').select('id').where('sn', '=', 'PANEL-ONLINE-1').executeTakeFirstOrThrow();
      await setPresence(db, [first.id], { online: 1, lastSeenAt: NOW });
      const total = Number(
        (
          await db
            .selectFrom('hotelDevice')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      const online = Number(
        (
          await db
            .selectFrom('hotelDevicePresence')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('online', '=', 1)
            .executeTakeFirstOrThrow()
        ).n,
      );

      const message = await runTask('device.onlineSample', { days: 7 }, { app: ctx().app, now: NOW });
      expect(message).toBe(`在线设备 ${online} / ${total} 台`);
      const kept = await db.selectFrom('hotelDeviceOnlineSample').select(['sampledAt', 'online', 'total']).orderBy('sampledAt').execute();
      expect(kept).toEqual([
        { sampledAt: NOW - 6 * DAY, online: 2, total: 2 },
        { sampledAt: NOW, online, total },
      ]);
    });

    it('answers the samples of the last 24 h, oldest first, ending with the live figure', async () => {
      const { db } = ctx().database;
      const later = NOW + 30 * DAY;
      for (const [ago, online] of [
        [25, 9],
        [23, 3],
        [2, 4],
        [1, 5],
      ] as const) {
        await db
          .insertInto('hotelDeviceOnlineSample')
          .values({ sampledAt: later - ago * HOUR, online, total: 10 })
          .execute();
      }
      expect(await onlineHistory(db, later, { online: 6, total: 10 })).toEqual([
        { at: later - 23 * HOUR, online: 3, total: 10 },
        { at: later - 2 * HOUR, online: 4, total: 10 },
        { at: later - HOUR, online: 5, total: 10 },
        { at: later, online: 6, total: 10 },
      ]);
    });

    it('ends the panel’s series with the current counts', async () => {
      const panel = expectOk(await ctx().call('/sys/panel/inquire', {}, admin));
      expect(panel.onlineHistory.at(-1)).toMatchObject({ online: panel.devicesOnline, total: panel.devices });
    });
  });

  it('counts devices per type with the dictionary label, most numerous first', async () => {
    const { db } = ctx().database;
    await db.deleteFrom('hotelDevice').execute();
    const device = (sn: string, type: string) => ({ name: sn, sn, type, state: 1, remark: '' });
    for (const [sn, type] of [
      ['TYPE-T1', 'tv'],
      ['TYPE-L1', 'lock'],
      ['TYPE-L2', 'lock'],
      ['TYPE-L3', 'lock'],
      ['TYPE-G1', 'gateway'],
      ['TYPE-G2', 'gateway'],
    ]) {
      expectOk(await ctx().call('/hotel/device/creation', device(sn, type), admin));
    }
    // A type whose dictionary entry was later removed still counts, under its stored value.
    await db.updateTable('hotelDevice').set({ type: 'retired' }).where('sn', '=', 'TYPE-T1').execute();
    const expected = [
      { type: 'lock', label: '智能门锁', count: 3 },
      { type: 'gateway', label: '网关', count: 2 },
      { type: 'retired', label: 'retired', count: 1 },
    ];
    expect(await devicesByType(db, SYSTEM_SCOPE)).toEqual(expected);
    expect(expectOk(await ctx().call('/sys/panel/inquire', {}, admin)).devicesByType).toEqual(expected);
  });

  it('keeps the counts', async () => {
    const panel = expectOk(await ctx().call('/sys/panel/inquire', {}, admin));
    expect(panel.devicesOffline).toBe(panel.devices - panel.devicesOnline);
    expect(panel.users).toBeGreaterThanOrEqual(1);
    expect(panel.roles).toBeGreaterThanOrEqual(1);
    expect(panel.activeSessions).toBeGreaterThanOrEqual(1);
  });
});
