/**
 * The scheduler: due runs happen once, paused ones never, failures are logged without stopping
 * the loop, two instances on one database share the work without doubling it, and the real timer
 * loop runs a due job.
 */
import { dialects, createTestDatabase, startTestApp, twoInstances, type TestApp, type TestDatabase } from './support/harness';
import { expectOk } from './support/sys-fixtures';
import { closeInterruptedRuns, INTERRUPTED_AFTER_MS, runDue, startScheduler } from '../../src/server/services/scheduler/scheduler';
import { nextRunAfter } from '../../src/server/lib/cron';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const definition = (name: string, overrides: Record<string, unknown> = {}) => ({
  name,
  cron: '* * * * *',
  task: 'schedule.pruneLogs',
  params: { days: 30 },
  state: 1,
  remark: '',
  ...overrides,
});

/** Each test plans its own schedules; the seeded ones and those of earlier tests must not run on its clock. */
async function pauseAllSchedules(app: TestApp): Promise<void> {
  await app.database.db.updateTable('sysSchedule').set({ state: 0, nextRunAt: null }).execute();
}

async function logsOf(app: TestApp, scheduleId: number) {
  return app.database.db.selectFrom('sysScheduleLog').selectAll().where('scheduleId', '=', scheduleId).orderBy('id').execute();
}

describe('cron in Asia/Shanghai', () => {
  it('plans `0 3 * * *` at 03:00 Shanghai, i.e. 19:00 UTC the day before', () => {
    // 2024-01-01 00:00 UTC is 08:00 in Shanghai; the next 03:00 there is 2024-01-02 03:00 = 2024-01-01 19:00 UTC.
    expect(nextRunAfter('0 3 * * *', Date.UTC(2024, 0, 1, 0, 0))).toBe(Date.UTC(2024, 0, 1, 19, 0));
    expect(nextRunAfter('0 3 * * *', Date.UTC(2024, 0, 1, 19, 0))).toBe(Date.UTC(2024, 0, 2, 19, 0));
    // Monday 09:30 in Shanghai is Monday 01:30 UTC.
    expect(nextRunAfter('30 9 * * 1', Date.UTC(2024, 0, 1, 0, 0))).toBe(Date.UTC(2024, 0, 1, 1, 30));
  });
});

for (const dialect of dialects()) {
  describe(`scheduler [${dialect}]`, () => {
    let target: TestDatabase;
    let app: TestApp;
    let admin: string;
    beforeAll(async () => {
      target = await createTestDatabase(dialect);
      app = await startTestApp(target);
      admin = await app.login();
    }, 30_000);
    beforeEach(() => pauseAllSchedules(app));
    afterAll(async () => {
      await app?.close();
      await target?.drop();
    });
    const create = async (name: string, overrides: Record<string, unknown> = {}) => expectOk(await app.call('/sys/schedule/creation', definition(name, overrides), admin));
    const stored = (id: number) => app.database.db.selectFrom('sysSchedule').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('runs a schedule when it is due, once, and plans the following run', async () => {
      const schedule = await create('到点执行', { cron: '*/5 * * * *' });
      const due = schedule.nextRunAt!;

      expect(await runDue(app.app, due - 1)).toBe(0);
      expect(await logsOf(app, schedule.id)).toHaveLength(0);

      expect(await runDue(app.app, due)).toBe(1);
      expect(await runDue(app.app, due)).toBe(0);
      const logs = await logsOf(app, schedule.id);
      expect(logs).toEqual([expect.objectContaining({ trigger: 'cron', outcome: 'success', message: '已删除 0 条 30 天前的运行日志' })]);
      expect(logs[0].endedAt).toBeGreaterThanOrEqual(logs[0].startedAt);
      expect(await stored(schedule.id)).toMatchObject({
        nextRunAt: due + 5 * MINUTE,
        lastRunAt: logs[0].startedAt,
        lastOutcome: 'success',
        lastMessage: '已删除 0 条 30 天前的运行日志',
        version: 0,
      });
    });

    it('runs a run missed while the server was down once, then plans from now', async () => {
      const schedule = await create('补跑一次');
      const late = schedule.nextRunAt! + 10 * MINUTE + 1;
      expect(await runDue(app.app, late)).toBe(1);
      expect(await logsOf(app, schedule.id)).toHaveLength(1);
      expect((await stored(schedule.id)).nextRunAt).toBe(nextRunAfter('* * * * *', late));
    });

    it('never runs a paused schedule, and resuming plans from now on', async () => {
      const schedule = await create('暂停任务');
      const due = schedule.nextRunAt!;
      expectOk(await app.call('/sys/schedule/edit', { ...definition('暂停任务', { state: 0 }), id: schedule.id, version: 0 }, admin));
      expect(await runDue(app.app, due + DAY)).toBe(0);
      expect(await logsOf(app, schedule.id)).toHaveLength(0);

      // Resuming plans from now on; nothing of the paused time is made up.
      const resumed = expectOk(await app.call('/sys/schedule/edit', { ...definition('暂停任务'), id: schedule.id, version: 1 }, admin));
      expect(resumed.nextRunAt).toBeGreaterThan(Date.now() - 1);
      await runDue(app.app, resumed.nextRunAt!);
      expect(await logsOf(app, schedule.id)).toHaveLength(1);
    });

    it('logs a task that throws as failed and still runs the next one', async () => {
      const failing = await create('会失败', { task: 'session.purgeExpired', params: {} });
      const healthy = await create('会成功');
      await app.database.db
        .updateTable('sysSchedule')
        .set({ nextRunAt: failing.nextRunAt! - 1 })
        .where('id', '=', failing.id)
        .execute();
      const spy = jest.spyOn(app.app.sessions, 'purgeExpired').mockRejectedValueOnce(new Error('数据库连接中断'));
      try {
        expect(await runDue(app.app, healthy.nextRunAt!)).toBe(2);
      } finally {
        spy.mockRestore();
      }
      expect(await logsOf(app, failing.id)).toEqual([expect.objectContaining({ outcome: 'failed', message: '数据库连接中断' })]);
      expect(await stored(failing.id)).toMatchObject({ lastOutcome: 'failed', lastMessage: '数据库连接中断' });
      expect(await logsOf(app, healthy.id)).toEqual([expect.objectContaining({ outcome: 'success' })]);
    });

    it('logs stored parameters that no longer fit the task as failed, naming the problem', async () => {
      const schedule = await create('参数失效', { task: 'device.offlineSweep', params: { minutes: 5 } });
      await app.database.db
        .updateTable('sysSchedule')
        .set({ params: JSON.stringify({ minutes: 0 }) })
        .where('id', '=', schedule.id)
        .execute();
      expect(await runDue(app.app, schedule.nextRunAt!)).toBe(1);
      expect(await logsOf(app, schedule.id)).toEqual([expect.objectContaining({ outcome: 'failed', message: '任务参数不正确：心跳超时（分钟）不能小于 1' })]);
    });

    it('prunes run logs older than the given days and purges expired sessions', async () => {
      const prune = await create('清理日志', { state: 0, params: { days: 30 } });
      const now = Date.now();
      const log = (startedAt: number) => ({ scheduleId: prune.id, trigger: 'cron', startedAt, endedAt: startedAt, outcome: 'success', message: '', instance: 't' });
      await app.database.db
        .insertInto('sysScheduleLog')
        .values([log(now - 40 * DAY), log(now - 31 * DAY), log(now - 29 * DAY)])
        .execute();
      const run = expectOk(await app.call('/sys/schedule/run', { id: prune.id }, admin));
      expect(run.message).toBe('已删除 2 条 30 天前的运行日志');
      expect((await logsOf(app, prune.id)).map((l) => l.startedAt).filter((t) => t < now)).toEqual([now - 29 * DAY]);

      const purge = await create('清理会话', { state: 0, task: 'session.purgeExpired', params: {} });
      const admins = await app.database.db.selectFrom('sysUser').select('id').where('userName', '=', 'admin').executeTakeFirstOrThrow();
      await app.database.db
        .insertInto('sysSession')
        .values({ tokenHash: 'expired-session', userId: admins.id, createdAt: now - DAY, lastSeenAt: now - DAY, expiresAt: now - 1, revokedAt: null, ip: '' })
        .execute();
      const purged = expectOk(await app.call('/sys/schedule/run', { id: purge.id }, admin));
      expect(purged).toMatchObject({ outcome: 'success', message: '已清理 1 个过期会话' });
      expect(await app.database.db.selectFrom('sysSession').select('id').where('tokenHash', '=', 'expired-session').executeTakeFirst()).toBeUndefined();
      // The live session survives.
      expect((await app.call('/sys/schedule/tasks', null, admin)).code).toBe(200);
    });

    it('closes runs a dead process left running for over an hour, and leaves recent ones alone', async () => {
      const schedule = await create('中断的任务');
      const now = Date.now();
      const insertRunning = (startedAt: number) =>
        app.database.db
          .insertInto('sysScheduleLog')
          .values({ scheduleId: schedule.id, trigger: 'cron', startedAt, endedAt: null, outcome: 'running', message: '', instance: 'gone' })
          .returning('id')
          .executeTakeFirstOrThrow();
      const stale = await insertRunning(now - INTERRUPTED_AFTER_MS - MINUTE);
      const recent = await insertRunning(now - MINUTE);
      expect(await closeInterruptedRuns(app.app, now)).toBe(1);
      const rows = await logsOf(app, schedule.id);
      expect(rows.find((row) => row.id === stale.id)).toMatchObject({ outcome: 'failed', endedAt: now, message: '运行中断：执行期间服务进程退出' });
      expect(rows.find((row) => row.id === recent.id)).toMatchObject({ outcome: 'running', endedAt: null });
    });

    it('runs a due job from the real timer loop, and stops when told', async () => {
      const schedule = await create('每秒执行', { cron: '* * * * * *' });
      const scheduler = startScheduler(app.app);
      try {
        const deadline = Date.now() + 5_000;
        while ((await logsOf(app, schedule.id)).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      } finally {
        await scheduler.stop();
      }
      const logs = await logsOf(app, schedule.id);
      expect(logs.length).toBeGreaterThanOrEqual(1);
      expect(logs[0]).toMatchObject({ trigger: 'cron', outcome: 'success' });
      await new Promise((r) => setTimeout(r, 1_200));
      expect(await logsOf(app, schedule.id)).toHaveLength(logs.length);
    }, 15_000);
  });

  describe(`two instances on one ${dialect} database`, () => {
    const instances = twoInstances(dialect);
    beforeAll(() => pauseAllSchedules(instances().a));

    it('runs each due run exactly once while both tick at the same moments', async () => {
      const { a: first, b: second } = instances();
      const admin = await first.login();
      const ids: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        ids.push(expectOk(await first.call('/sys/schedule/creation', definition(`并发任务${i}`), admin)).id);
      }
      // One due moment for all six, so every tick races on every schedule.
      const start = nextRunAfter('* * * * *', Date.now())!;
      await first.database.db.updateTable('sysSchedule').set({ nextRunAt: start }).where('id', 'in', ids).execute();

      const rounds = 4;
      for (let round = 0; round < rounds; round += 1) {
        const now = start + round * MINUTE;
        const claimed = await Promise.all([runDue(first.app, now), runDue(second.app, now), runDue(first.app, now), runDue(second.app, now)]);
        expect(claimed.reduce((sum, n) => sum + n, 0)).toBe(ids.length);
      }
      const logs = await first.database.db.selectFrom('sysScheduleLog').select(['scheduleId', 'instance', 'outcome']).where('scheduleId', 'in', ids).execute();
      for (const id of ids) expect(logs.filter((l) => l.scheduleId === id)).toHaveLength(rounds);
      expect(logs.every((l) => l.outcome === 'success')).toBe(true);
      expect(new Set(logs.map((l) => l.instance)).size).toBeGreaterThanOrEqual(1);
    }, 30_000);
  });
}
