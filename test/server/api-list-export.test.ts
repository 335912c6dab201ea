/**
 * .xlsx exports of the lists: Chinese headers, dictionary labels instead of stored values, the
 * list's filters and sort honoured, formula-like text neutralised, and export as a resource of its
 * own (a refusal answers the envelope, not a file).
 */
import { describeOnEachDatabase } from './support/harness';
import { createRole, createUser, expectOk, menuGrants, resourceId, signedInOperator, expectRefused } from './support/sys-fixtures';
import { download } from './support/files';
import { XLSX_MIME } from '../../src/contract/constants';

const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describeOnEachDatabase('list export', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
    const front = await createRole(ctx(), admin, '前台');
    await createUser(ctx(), admin, 'carol', front.id);
    await createUser(ctx(), admin, 'bob', null);
    expectOk(await ctx().call('/sys/user/creation', { userName: 'mallory', nickName: '=HYPERLINK("http://x")', password: 'Quiet-Harbour-42', state: 0, roleId: null }, admin));
    const building = expectOk(await ctx().call('/hotel/location/creation', { parentId: 0, kind: 'building', name: '主楼', sort: 0 }, admin));
    const floor = expectOk(await ctx().call('/hotel/location/creation', { parentId: building.id, kind: 'floor', name: '8F', sort: 8 }, admin));
    const room = expectOk(await ctx().call('/hotel/location/creation', { parentId: floor.id, kind: 'room', name: '0808', sort: 0 }, admin));
    for (const [sn, type, state, remark, locationId] of [
      ['LOCK-0001', 'lock', 1, '主楼', room.id],
      ['TV-0001', 'tv', 0, '@SUM(A1)', floor.id],
      ['LOCK-0002', 'lock', 1, '-2+3', null],
    ] as const) {
      expectOk(await ctx().call('/hotel/device/creation', { name: `设备 ${sn}`, sn, type, state, remark, locationId }, admin));
    }
  });

  it('exports users with Chinese headers, state labels, role names and times, as an attachment', async () => {
    const file = await download(ctx(), '/sys/user/export', {}, admin);
    expect(file.type).toBe(XLSX_MIME);
    expect(file.disposition).toMatch(/^attachment; filename="export\.xlsx"; filename\*=UTF-8''/);
    expect(decodeURIComponent(file.disposition.split("UTF-8''")[1])).toMatch(/^用户列表-\d{12}\.xlsx$/);
    expect(file.rows[0]).toEqual(['用户名', '昵称', '状态', '角色', '创建时间', '更新时间']);
    expect(file.rows.slice(1).map((row) => row.slice(0, 4))).toEqual([
      ['admin', '系统管理员', '启用', '超级管理员'],
      ['carol', 'carol 昵称', '启用', '前台'],
      ['bob', 'bob 昵称', '启用', undefined],
      ['mallory', '\'=HYPERLINK("http://x")', '禁用', undefined],
    ]);
    expect(file.rows[1][4]).toMatch(TIME);
  });

  it('honours the filters and the sort of the list', async () => {
    const names = async (body: object) => (await download(ctx(), '/sys/user/export', body, admin)).rows.slice(1).map((row) => row[0]);
    expect(await names({ params: { state: 0 } })).toEqual(['mallory']);
    expect(await names({ params: { userName: 'o', state: 1 } })).toEqual(['carol', 'bob']);
    expect(await names({ sort: { field: 'userName', order: 'descend' } })).toEqual(['mallory', 'carol', 'bob', 'admin']);
    expect(await names({ params: { state: 1 }, sort: { field: 'userName', order: 'ascend' } })).toEqual(['admin', 'bob', 'carol']);
  });

  it('refuses what the inquiry refuses, as an envelope', async () => {
    const refused = await download(ctx(), '/sys/user/export', { sort: { field: 'passwordHash', order: 'ascend' } }, admin);
    expectRefused(refused.envelope!, '排序字段取值不正确');
    expect((await download(ctx(), '/sys/user/export', { params: { password: 'x' } }, admin)).envelope).toMatchObject({ code: 400, msg: '不支持的字段：password' });
    expect((await download(ctx(), '/sys/user/export', { size: 20 }, admin)).envelope).toMatchObject({ code: 400, msg: '不支持的字段：size' });
  });

  it('exports devices with type, state and online labels, neutralising formula-like remarks', async () => {
    const file = await download(ctx(), '/hotel/device/export', { sort: { field: 'sn', order: 'ascend' } }, admin);
    // The room is the location's path (a floor for shared equipment; empty without a location).
    expect(file.rows[0]).toEqual(['设备名称', '序列号', '设备类型', '位置', '状态', '在线', '最后上报', '备注']);
    expect(file.rows.slice(1)).toEqual([
      ['设备 LOCK-0001', 'LOCK-0001', '智能门锁', '主楼 / 8F / 0808', '启用', '离线', undefined, '主楼'],
      ['设备 LOCK-0002', 'LOCK-0002', '智能门锁', undefined, '启用', '离线', undefined, "'-2+3"],
      ['设备 TV-0001', 'TV-0001', '电视', '主楼 / 8F', '禁用', '离线', undefined, "'@SUM(A1)"],
    ]);
    const locks = await download(ctx(), '/hotel/device/export', { params: { type: 'lock', state: 1 } }, admin);
    expect(locks.rows.slice(1).map((row) => row[1])).toEqual(['LOCK-0001', 'LOCK-0002']);
  });

  it('shows a label an operator renamed in the dictionary, as the screen does', async () => {
    const entry = expectOk(await ctx().call('/sys/dict/inquire', { size: 20, current: 1, params: { code: 'device_type', label: '电视' } }, admin)).records[0];
    expectOk(await ctx().call('/sys/dict/edit', { ...entry, label: '客房电视', id: entry.id, version: entry.version, createdAt: undefined, updatedAt: undefined }, admin));
    const file = await download(ctx(), '/hotel/device/export', { params: { sn: 'TV' } }, admin);
    expect(file.rows[1][2]).toBe('客房电视');
  });

  it('exports roles, dictionaries and schedules with their labels', async () => {
    const roles = await download(ctx(), '/sys/role/export', { sort: { field: 'name', order: 'descend' } }, admin);
    expect(roles.rows[0]).toEqual(['角色名称', '备注', '状态', '内置', '用户数', '创建时间', '更新时间']);
    expect(roles.rows.slice(1).map((row) => row.slice(0, 5))).toEqual([
      ['超级管理员', '内置角色，拥有全部权限', '启用', '是', 1],
      ['前台', undefined, '启用', '否', 1],
    ]);

    const dicts = await download(ctx(), '/sys/dict/export', { params: { code: 'common_state' } }, admin);
    expect(dicts.rows).toEqual([
      ['字典编码', '名称', '值', '排序', '状态', '备注', '更新时间'],
      ['common_state', '启用', '1', 1, '启用', undefined, expect.stringMatching(TIME)],
      ['common_state', '禁用', '0', 2, '启用', undefined, expect.stringMatching(TIME)],
    ]);

    const schedules = await download(ctx(), '/sys/schedule/export', { sort: { field: 'name', order: 'ascend' }, params: { task: 'schedule.pruneLogs' } }, admin);
    expect(schedules.rows[0]).toEqual(['任务名称', 'Cron 表达式', '任务类型', '任务参数', '状态', '下次执行', '上次执行', '最近运行结果', '最近运行信息', '备注']);
    expect(schedules.rows[1].slice(0, 5)).toEqual(['清理任务日志', '0 4 * * *', '清理任务日志', '{"days":30}', '运行中']);
  });

  it('exports one schedule’s run log, newest first, with trigger and outcome labels', async () => {
    const schedule = expectOk(await ctx().call('/sys/schedule/inquire', { size: 20, current: 1, params: { task: 'session.purgeExpired' } }, admin)).records[0];
    expectOk(await ctx().call('/sys/schedule/run', { id: schedule.id }, admin));
    expectOk(await ctx().call('/sys/schedule/run', { id: schedule.id }, admin));
    const file = await download(ctx(), '/sys/schedule/log/export', { params: { scheduleId: schedule.id } }, admin);
    expect(decodeURIComponent(file.disposition.split("UTF-8''")[1])).toMatch(/^运行日志-清理过期会话-\d{12}\.xlsx$/);
    expect(file.rows[0]).toEqual(['开始时间', '结束时间', '触发方式', '结果', '信息', '实例']);
    expect(file.rows.slice(1).map((row) => row.slice(2, 4))).toEqual([
      ['手动执行', '成功'],
      ['手动执行', '成功'],
    ]);
    expect((await download(ctx(), '/sys/schedule/log/export', { params: { scheduleId: 999999 } }, admin)).envelope).toEqual({ code: 404, msg: '定时任务不存在', data: null });
    expect((await download(ctx(), '/sys/schedule/log/export', { params: {} }, admin)).envelope).toMatchObject({ code: 400, msg: '定时任务不能为空' });
  });

  it('is a resource of its own: a role may list users without being able to export them', async () => {
    const exportId = await resourceId(ctx(), '/sys/user/export');
    const grants = (await menuGrants(ctx(), '/sys/user')).filter((grant) => !(grant.type === 'resource' && grant.resource === exportId));
    const viewer = await signedInOperator(ctx(), admin, 'viewer', grants);
    expectOk(await ctx().call('/sys/user/inquire', { size: 20, current: 1 }, viewer.token));
    expect((await download(ctx(), '/sys/user/export', {}, viewer.token)).envelope).toEqual({ code: 403, msg: '没有权限执行该操作', data: null });
    expect((await download(ctx(), '/sys/user/export', {}, 'not-a-token')).envelope).toMatchObject({ code: 401 });

    const authority = expectOk(await ctx().call('GET /sys/menu/authority', null, viewer.token));
    const userMenu = authority.find((menu) => menu.element === 'sys/user')!;
    expect(userMenu.granted).toContain('api_inquire');
    expect(userMenu.granted).not.toContain('api_export');
    const adminAuthority = expectOk(await ctx().call('GET /sys/menu/authority', null, admin));
    expect(adminAuthority.find((menu) => menu.element === 'sys/user')!.granted).toEqual(expect.arrayContaining(['api_export', 'api_import', 'field_state']));

    const exporter = await signedInOperator(ctx(), admin, 'exporter', await menuGrants(ctx(), '/sys/user'));
    expect((await download(ctx(), '/sys/user/export', {}, exporter.token)).rows[0][0]).toBe('用户名');
  });
});
