import { describeOnEachDatabase } from './support/harness';
import type { EndpointKey } from '../../src/contract';
import { expectOk, menuId, resourceId, rowCount, signedInOperator, expectRefused } from './support/sys-fixtures';

const SCHEDULE_ENDPOINTS: EndpointKey[] = [
  '/sys/schedule/inquire',
  '/sys/schedule/creation',
  '/sys/schedule/edit',
  '/sys/schedule/run',
  '/sys/schedule/log',
  '/sys/schedule/tasks',
  '/sys/schedule/preview',
];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A valid creation body; tests override what they are about. */
const sweep = (name: string, overrides: Record<string, unknown> = {}) => ({
  name,
  cron: '*/5 * * * *',
  task: 'device.offlineSweep',
  params: { minutes: 5 },
  state: 1,
  remark: '',
  ...overrides,
});

describeOnEachDatabase('sys/schedule', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });
  const create = async (body: Record<string, unknown>) => expectOk(await ctx().call('/sys/schedule/creation', body, admin));
  const stored = (id: number) => ctx().database.db.selectFrom('sysSchedule').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  describe('seed', () => {
    it('ships the housekeeping schedules, planned in Asia/Shanghai', async () => {
      const page = expectOk(await ctx().call('/sys/schedule/inquire', { size: 20, current: 1 }, admin));
      const byName = Object.fromEntries(page.records.map((s) => [s.name, s]));
      expect(byName['设备离线检测']).toMatchObject({ cron: '* * * * *', task: 'device.offlineSweep', params: { minutes: 5 }, state: 1 });
      expect(byName['清理过期会话']).toMatchObject({ cron: '0 3 * * *', task: 'session.purgeExpired', params: {}, state: 1 });
      expect(byName['清理任务日志']).toMatchObject({ cron: '0 4 * * *', task: 'schedule.pruneLogs', params: { days: 30 }, state: 1 });
      expect(byName['设备在线统计']).toMatchObject({ cron: '0 * * * *', task: 'device.onlineSample', params: { days: 7 }, state: 1 });
      const sweepNext = byName['设备离线检测'].nextRunAt!;
      expect(sweepNext % 60_000).toBe(0);
      expect(sweepNext - Date.now()).toBeLessThanOrEqual(60_000);
      // 03:00 and 04:00 in Shanghai (UTC+8) are 19:00 and 20:00 UTC.
      expect(new Date(byName['清理过期会话'].nextRunAt!).toISOString()).toMatch(/T19:00:00\.000Z$/);
      expect(new Date(byName['清理任务日志'].nextRunAt!).toISOString()).toMatch(/T20:00:00\.000Z$/);
    });
  });

  describe('tasks and preview', () => {
    it('lists the built-in task registry with labels and parameter schemas', async () => {
      const tasks = expectOk(await ctx().call('/sys/schedule/tasks', null, admin));
      expect(tasks.map((t) => t.name)).toEqual(['device.offlineSweep', 'session.purgeExpired', 'schedule.pruneLogs', 'monitor.pruneLogs', 'device.onlineSample']);
      expect(tasks[0]).toMatchObject({ label: '设备离线检测', params: { type: 'object', properties: { minutes: { type: 'integer', minimum: 1 } } } });
      // 保留天数 comes with the default a new schedule's dialog starts at.
      expect(tasks[2]).toMatchObject({ params: { properties: { days: { title: '保留天数', default: 30 } }, required: ['days'] } });
      expect(tasks[4]).toMatchObject({ params: { properties: { days: { title: '保留天数', default: 7 } } } });
    });

    it('previews the next five runs of `0 3 * * *` at 03:00 Shanghai (19:00 UTC the day before)', async () => {
      const before = Date.now();
      const preview = expectOk(await ctx().call('/sys/schedule/preview', { cron: '0 3 * * *' }, admin));
      expect(preview.timeZone).toBe('Asia/Shanghai');
      expect(preview.next).toHaveLength(5);
      expect(preview.next[0]).toBeGreaterThan(before);
      expect(preview.next[0] - before).toBeLessThanOrEqual(DAY);
      for (const [index, time] of preview.next.entries()) {
        expect(new Date(time).toISOString()).toMatch(/T19:00:00\.000Z$/);
        if (index > 0) expect(time - preview.next[index - 1]).toBe(DAY);
      }
    });

    it('answers a clear Chinese message for an invalid expression', async () => {
      expect(await ctx().call('/sys/schedule/preview', { cron: '* * *' }, admin)).toEqual({
        code: 400,
        msg: 'Cron 表达式不正确：应为 5 段（分 时 日 月 周）或 6 段（秒 分 时 日 月 周），以空格分隔',
        data: null,
        errors: [{ field: 'cron', msg: 'Cron 表达式不正确：应为 5 段（分 时 日 月 周）或 6 段（秒 分 时 日 月 周），以空格分隔' }],
      });
      expect(await ctx().call('/sys/schedule/preview', { cron: '0 25 * * *' }, admin)).toMatchObject({ code: 400, msg: 'Cron 表达式不正确：小时（0-23）的取值超出范围' });
      expect(await ctx().call('/sys/schedule/preview', { cron: '0 0 31 2 *' }, admin)).toMatchObject({ code: 400, msg: 'Cron 表达式不正确：该表达式永远不会触发' });
    });
  });

  describe('creation', () => {
    it('saves a schedule and plans its next run', async () => {
      const before = Date.now();
      const answer = await ctx().call('/sys/schedule/creation', sweep('五分钟巡检', { cron: '0 3 * * *', remark: '夜间' }), admin);
      expect(answer).toMatchObject({
        code: 200,
        msg: '保存成功',
        data: {
          name: '五分钟巡检',
          cron: '0 3 * * *',
          task: 'device.offlineSweep',
          params: { minutes: 5 },
          state: 1,
          remark: '夜间',
          lastRunAt: null,
          lastOutcome: '',
          version: 0,
        },
      });
      const next = answer.data.nextRunAt!;
      expect(new Date(next).toISOString()).toMatch(/T19:00:00\.000Z$/);
      expect(next).toBeGreaterThan(before);
      expect(next - before).toBeLessThanOrEqual(DAY);
      expect(JSON.parse((await stored(answer.data.id)).params)).toEqual({ minutes: 5 });
    });

    it('accepts six fields (seconds first) and leaves a paused schedule unplanned', async () => {
      const everySecond = await create(sweep('每秒', { cron: '*/10 * * * * *', state: 0 }));
      expect(everySecond.nextRunAt).toBeNull();
    });

    it.each([
      ['an invalid cron', { cron: '61 * * * *' }, 'Cron 表达式不正确：分钟（0-59）的取值超出范围'],
      ['seven cron fields', { cron: '0 0 0 * * * 2030' }, 'Cron 表达式不正确：应为 5 段（分 时 日 月 周）或 6 段（秒 分 时 日 月 周），以空格分隔'],
      ['illegal cron characters', { cron: '* * * * mon;rm' }, expect.stringMatching(/^Cron 表达式不正确：/)],
      ['a class name as task', { task: 'java.lang.Runtime' }, '任务类型不正确：java.lang.Runtime 不是内置任务'],
      ['a prototype key as task', { task: 'constructor' }, '任务类型不正确：constructor 不是内置任务'],
      ['a parameter below its minimum', { params: { minutes: 0 } }, '任务参数不正确：心跳超时（分钟）不能小于 1'],
      ['a missing parameter', { params: {} }, '任务参数不正确：心跳超时（分钟）不能为空'],
      ['a parameter of the wrong type', { params: { minutes: '5' } }, '任务参数不正确：心跳超时（分钟）应为整数'],
      ['an unknown parameter', { params: { minutes: 5, command: 'rm -rf /' } }, '任务参数不正确：不支持的参数 command'],
      ['an empty name', { name: '' }, '任务名称不能为空'],
      ['an unknown field', { handler: 'x' }, '不支持的字段：handler'],
    ])('refuses %s with a 400, writing nothing', async (_case, overrides, msg) => {
      const before = await rowCount(ctx(), 'sysSchedule');
      const answer = await ctx().call('/sys/schedule/creation', sweep('不应保存', overrides), admin);
      expectRefused(answer, msg);
      expect(await rowCount(ctx(), 'sysSchedule')).toBe(before);
    });

    it('refuses a duplicate name with a 409', async () => {
      await create(sweep('重名任务'));
      const before = await rowCount(ctx(), 'sysSchedule');
      expect(await ctx().call('/sys/schedule/creation', sweep('重名任务', { cron: '0 1 * * *' }), admin)).toEqual({ code: 409, msg: '任务名称已存在', data: null });
      expect(await rowCount(ctx(), 'sysSchedule')).toBe(before);
    });
  });

  describe('edit', () => {
    it('pausing clears the next run, resuming and a new expression plan it again, other edits keep it', async () => {
      const created = await create(sweep('编辑测试', { cron: '0 3 * * *' }));
      const planned = created.nextRunAt;

      const remarkOnly = expectOk(await ctx().call('/sys/schedule/edit', { ...sweep('编辑测试', { cron: '0 3 * * *', remark: '改备注' }), id: created.id, version: 0 }, admin));
      expect(remarkOnly).toMatchObject({ remark: '改备注', nextRunAt: planned, version: 1 });

      const paused = await ctx().call('/sys/schedule/edit', { ...sweep('编辑测试', { cron: '0 3 * * *', state: 0 }), id: created.id, version: 1 }, admin);
      expect(paused).toMatchObject({ code: 200, msg: '保存成功', data: { state: 0, nextRunAt: null, version: 2 } });
      expect((await stored(created.id)).nextRunAt).toBeNull();

      const resumed = expectOk(await ctx().call('/sys/schedule/edit', { ...sweep('编辑测试', { cron: '0 3 * * *' }), id: created.id, version: 2 }, admin));
      expect(resumed.nextRunAt).toBe(planned);

      const before = Date.now();
      const recron = expectOk(await ctx().call('/sys/schedule/edit', { ...sweep('编辑测试', { cron: '30 4 * * *', params: { minutes: 9 } }), id: created.id, version: 3 }, admin));
      expect(new Date(recron.nextRunAt!).toISOString()).toMatch(/T20:30:00\.000Z$/);
      expect(recron.nextRunAt! - before).toBeLessThanOrEqual(DAY);
      expect(recron.params).toEqual({ minutes: 9 });
    });

    it('refuses a stale version, an unknown id, a duplicate name and invalid fields, changing nothing', async () => {
      const target = await create(sweep('被编辑'));
      await create(sweep('已占用'));
      const edit = (overrides: Record<string, unknown>) => ctx().call('/sys/schedule/edit', { ...sweep('被编辑'), id: target.id, version: 0, ...overrides }, admin);

      expect(await edit({ version: 7 })).toEqual({ code: 409, msg: '数据已被他人修改，请刷新后重试', data: null });
      expect(await edit({ id: 999_999 })).toEqual({ code: 404, msg: '定时任务不存在', data: null });
      expect(await edit({ name: '已占用' })).toEqual({ code: 409, msg: '任务名称已存在', data: null });
      expect(await edit({ cron: 'every minute' })).toMatchObject({ code: 400, msg: expect.stringMatching(/^Cron 表达式不正确：/) });
      expectRefused(await edit({ task: 'schedule.pruneLogs' }), '任务参数不正确：保留天数不能为空');
      expect(await stored(target.id)).toMatchObject({ name: '被编辑', cron: '*/5 * * * *', task: 'device.offlineSweep', version: 0 });
    });
  });

  describe('inquire', () => {
    it('filters by contained name, task and state', async () => {
      await create(sweep('筛选_夜间', { task: 'schedule.pruneLogs', params: { days: 7 }, state: 0 }));
      const names = async (params: Record<string, unknown>) =>
        expectOk(await ctx().call('/sys/schedule/inquire', { size: 100, current: 1, params }, admin)).records.map((s) => s.name);
      expect(await names({ name: '筛选_' })).toEqual(['筛选_夜间']);
      expect(await names({ name: '%' })).toEqual([]);
      expect(await names({ task: 'schedule.pruneLogs' })).toEqual(['清理任务日志', '筛选_夜间']);
      expect(await names({ task: 'schedule.pruneLogs', state: 0 })).toEqual(['筛选_夜间']);
      const paged = expectOk(await ctx().call('/sys/schedule/inquire', { size: 2, current: 1 }, admin));
      expect(paged.records).toHaveLength(2);
      expect(paged.total).toBe(await rowCount(ctx(), 'sysSchedule'));
    });
  });

  describe('run and log', () => {
    it('runs a schedule once on demand, logs it and leaves the planned run alone', async () => {
      const schedule = await create(sweep('手动执行', { state: 0, task: 'schedule.pruneLogs', params: { days: 30 } }));
      const answer = await ctx().call('/sys/schedule/run', { id: schedule.id }, admin);
      expect(answer).toMatchObject({
        code: 200,
        msg: '执行成功',
        data: { scheduleId: schedule.id, trigger: 'manual', outcome: 'success', message: '已删除 0 条 30 天前的运行日志', instance: expect.any(String) },
      });
      expect(answer.data.endedAt).toBeGreaterThanOrEqual(answer.data.startedAt);
      expect(await stored(schedule.id)).toMatchObject({ lastRunAt: answer.data.startedAt, lastOutcome: 'success', nextRunAt: null, version: 0 });
    });

    it('pages the run log newest first', async () => {
      const schedule = await create(sweep('日志分页', { task: 'session.purgeExpired', params: {} }));
      const ids: number[] = [];
      for (let i = 0; i < 3; i += 1) ids.push(expectOk(await ctx().call('/sys/schedule/run', { id: schedule.id }, admin)).id);
      const first = expectOk(await ctx().call('/sys/schedule/log', { size: 2, current: 1, params: { scheduleId: schedule.id } }, admin));
      expect(first.total).toBe(3);
      expect(first.records.map((r) => r.id)).toEqual([ids[2], ids[1]]);
      const second = expectOk(await ctx().call('/sys/schedule/log', { size: 2, current: 2, params: { scheduleId: schedule.id } }, admin));
      expect(second.records.map((r) => r.id)).toEqual([ids[0]]);
    });

    it('answers 404 for an unknown schedule and 400 for a missing one', async () => {
      expect(await ctx().call('/sys/schedule/run', { id: 999_999 }, admin)).toEqual({ code: 404, msg: '定时任务不存在', data: null });
      expect(await ctx().call('/sys/schedule/log', { size: 20, current: 1, params: { scheduleId: 999_999 } }, admin)).toEqual({ code: 404, msg: '定时任务不存在', data: null });
      expect(await ctx().call('/sys/schedule/log', { size: 20, current: 1, params: {} }, admin)).toMatchObject({ code: 400, msg: '定时任务不能为空' });
    });
  });

  describe('access', () => {
    it('refuses every schedule endpoint to a role without its resources', async () => {
      const { token } = await signedInOperator(ctx(), admin, 'no_grants', []);
      const schedule = await create(sweep('访问控制'));
      const bodies: Record<string, unknown> = {
        '/sys/schedule/inquire': { size: 20, current: 1 },
        '/sys/schedule/creation': sweep('越权新增'),
        '/sys/schedule/edit': { ...sweep('访问控制'), id: schedule.id, version: 0 },
        '/sys/schedule/run': { id: schedule.id },
        '/sys/schedule/log': { size: 20, current: 1, params: { scheduleId: schedule.id } },
        '/sys/schedule/tasks': null,
        '/sys/schedule/preview': { cron: '* * * * *' },
      };
      const logsBefore = await rowCount(ctx(), 'sysScheduleLog');
      for (const key of SCHEDULE_ENDPOINTS) {
        expect([key, await ctx().call(key, bodies[key] as never, token)]).toEqual([key, { code: 403, msg: '没有权限执行该操作', data: null }]);
      }
      expect(await rowCount(ctx(), 'sysScheduleLog')).toBe(logsBefore);
      expect((await stored(schedule.id)).version).toBe(0);
    });

    it('lets a role holding only the inquiry list schedules but not run them', async () => {
      const grant = [
        { type: 'menu' as const, resource: await menuId(ctx(), '/sys/schedule') },
        { type: 'resource' as const, resource: await resourceId(ctx(), '/sys/schedule/inquire') },
      ];
      const { token } = await signedInOperator(ctx(), admin, 'viewer', grant);
      expect((await ctx().call('/sys/schedule/inquire', { size: 20, current: 1 }, token)).code).toBe(200);
      expect(await ctx().call('/sys/schedule/run', { id: 1 }, token)).toMatchObject({ code: 403 });
    });
  });
});
