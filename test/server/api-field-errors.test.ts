/**
 * Field-level refusals: a request refused for one of its fields answers, besides code and msg as
 * before, `errors: [{ field, msg }]` naming the field as the body names it, so a form can show the
 * message under it. A refused cron preview (a check of what is being typed) is no operation.
 */
import { describeOnEachDatabase } from './support/harness';
import { expectOk } from './support/sys-fixtures';

describeOnEachDatabase('field errors in the envelope', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });

  it('names the field a schema rule refused, keeping code and msg', async () => {
    const msg = '角色名称格式不正确：不能以空格开头或结尾';
    expect(await ctx().call('/sys/role/creation', { name: '   ', remark: '', state: 1 }, admin)).toEqual({ code: 400, msg, data: null, errors: [{ field: 'name', msg }] });
  });

  it('names a missing field and an unknown one', async () => {
    const missing = await ctx().call('/sys/role/creation', { remark: '', state: 1 }, admin);
    expect(missing).toEqual({ code: 400, msg: '角色名称不能为空', data: null, errors: [{ field: 'name', msg: '角色名称不能为空' }] });
    const unknown = await ctx().call('/sys/role/creation', { name: '前台', remark: '', state: 1, colour: 'red' }, admin);
    expect(unknown).toEqual({ code: 400, msg: '不支持的字段：colour', data: null, errors: [{ field: 'colour', msg: '不支持的字段：colour' }] });
  });

  it('names the cron and the task parameter a schedule rule refused', async () => {
    const body = { name: '清理', cron: '0 3 * *', task: 'schedule.pruneLogs', params: { days: 30 }, state: 1, remark: '' };
    const badCron = await ctx().call('/sys/schedule/creation', body, admin);
    expect(badCron).toMatchObject({ code: 400, errors: [{ field: 'cron', msg: badCron.msg }] });
    const badDays = await ctx().call('/sys/schedule/creation', { ...body, cron: '0 3 * * *', params: { days: 0 } }, admin);
    expect(badDays).toMatchObject({ code: 400, errors: [{ field: 'params.days', msg: badDays.msg }] });
    expect(badDays.msg).toContain('保留天数');
  });

  it('leaves errors out of a refusal that is about no field', async () => {
    const answer = await ctx().call('/sys/role/edit', { id: 999_999, name: '无此角色', remark: '', state: 1, version: 0 }, admin);
    expect(answer.code).toBe(404);
    expect(answer).not.toHaveProperty('errors');
  });

  it('answers a bad cron preview with the field, and records no operation for it', async () => {
    const before = await ctx().database.db.selectFrom('sysOperationLog').select('id').where('path', '=', '/sys/schedule/preview').execute();
    const answer = await ctx().call('/sys/schedule/preview', { cron: '61 * * * *' }, admin);
    expect(answer).toMatchObject({ code: 400, errors: [{ field: 'cron', msg: answer.msg }] });
    expectOk(await ctx().call('/sys/schedule/preview', { cron: '0 3 * * *' }, admin));
    const after = await ctx().database.db.selectFrom('sysOperationLog').select('id').where('path', '=', '/sys/schedule/preview').execute();
    expect(after).toHaveLength(before.length);
  });
});
