/**
 * Issue 8, point 5: expressions that can never fire (31 April, 30 February, ...) once overflowed
 * the cron library's stack and answered 500. They get a clear 400 everywhere an expression is
 * read from a request, and a stored one cannot stop the scheduler.
 */
import { describeOnEachDatabase } from './support/harness';
import { expectOk, rowCount, expectRefused } from './support/sys-fixtures';
import { runDue } from '../../src/server/services/scheduler/scheduler';

const NEVER = ['0 0 31 4,6,9,11 *', '0 0 31 2,4,6 *', '0 0 30 2 *', '0 0 0 31 4 *'];
const MESSAGE = 'Cron 表达式不正确：该表达式永远不会触发';

const definition = (name: string, cron: string) => ({ name, cron, task: 'schedule.pruneLogs', params: { days: 30 }, state: 1, remark: '' });

describeOnEachDatabase('cron expressions that never fire', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });

  it.each(NEVER)('preview of %s answers a 400 saying it never fires', async (cron) => {
    expectRefused(await ctx().call('/sys/schedule/preview', { cron }, admin), MESSAGE);
  });

  it.each(NEVER)('creation with %s is refused and writes nothing', async (cron) => {
    const before = await rowCount(ctx(), 'sysSchedule');
    expectRefused(await ctx().call('/sys/schedule/creation', definition(`never ${cron}`, cron), admin), MESSAGE);
    expect(await rowCount(ctx(), 'sysSchedule')).toBe(before);
  });

  it('edit to such an expression is refused and leaves the schedule as it was', async () => {
    const created = expectOk(await ctx().call('/sys/schedule/creation', definition('每月最后', '0 0 28 * *'), admin));
    for (const cron of NEVER) {
      expect(await ctx().call('/sys/schedule/edit', { ...definition('每月最后', cron), id: created.id, version: created.version }, admin)).toEqual({
        code: 400,
        msg: MESSAGE,
        data: null,
        errors: [{ field: 'cron', msg: MESSAGE }],
      });
    }
    const row = await ctx().database.db.selectFrom('sysSchedule').select(['cron', 'version']).where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ cron: '0 0 28 * *', version: created.version });
  });

  it('a stored one that is due runs once, then waits for no further run, and the tick goes on', async () => {
    const { db } = ctx().database;
    await db.updateTable('sysSchedule').set({ state: 0, nextRunAt: null }).execute();
    const now = Date.now();
    const stored = await db
      .insertInto('sysSchedule')
      .values({
        ...definition('旧数据', NEVER[0]),
        params: '{"days":30}',
        nextRunAt: now - 1000,
        lastRunAt: null,
        lastOutcome: '',
        lastMessage: '',
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const healthy = expectOk(await ctx().call('/sys/schedule/creation', definition('健康任务', '* * * * *'), admin));
    await db
      .updateTable('sysSchedule')
      .set({ nextRunAt: now - 500 })
      .where('id', '=', healthy.id)
      .execute();
    expect(await runDue(ctx().app, now)).toBe(2);
    const after = await db.selectFrom('sysSchedule').select(['id', 'nextRunAt', 'lastOutcome']).where('id', 'in', [stored.id, healthy.id]).orderBy('id').execute();
    expect(after[0]).toEqual({ id: stored.id, nextRunAt: null, lastOutcome: 'success' });
    expect(after[1].nextRunAt).toBeGreaterThan(now);
    expect(await runDue(ctx().app, now + 1)).toBe(0);
    expect((await ctx().call('/sys/schedule/inquire', { size: 20, current: 1 }, admin)).code).toBe(200);
  });
});
