/**
 * .xlsx imports of users and devices: a preview writes nothing and reports every row's problems in
 * the words of the screen's own validation; an apply writes all rows in one transaction or none;
 * existing records are updated only when asked, keyed by 用户名 / 序列号; the screens' guards
 * (role escalation, built-in administrators, oneself) hold; new users' passwords and new devices'
 * keys are generated and answered once.
 */
import { describeOnEachDatabase, type TestApp } from './support/harness';
import { USER_PASSWORD, createRole, createUser, expectOk, menuGrants, rowCount, signedInOperator } from './support/sys-fixtures';
import { download, upload, xlsxFile } from './support/files';
import type { DataOf } from '../../src/contract';
import { deviceWithPresence } from '../../src/server/routes/hotel/device/presence';
import { SYSTEM_SCOPE } from '../../src/server/lib/data-scope';

/** A column's text cells, one per line (the notes sheet holds text only). */
const cellTexts = (values: readonly unknown[]) => values.filter((value): value is string => typeof value === 'string').join('\n');

type Summary = DataOf<'/sys/user/import'>;
const USER_HEADER = ['用户名*', '昵称*', '状态', '角色'];
const DEVICE_HEADER = ['设备名称*', '序列号*', '设备类型*', '位置', '状态', '备注'];

describeOnEachDatabase('list import', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });

  const importUsers = async (rows: unknown[][], mode: 'preview' | 'apply', updateExisting = false, token = admin) =>
    upload<Summary>(ctx(), '/sys/user/import', { mode, updateExisting: updateExisting ? '1' : '0' }, await xlsxFile([USER_HEADER, ...rows]), token);
  const importDevices = async (rows: unknown[][], mode: 'preview' | 'apply', updateExisting = false, token = admin) =>
    upload<Summary>(ctx(), '/hotel/device/import', { mode, updateExisting: updateExisting ? '1' : '0' }, await xlsxFile([DEVICE_HEADER, ...rows]), token);
  const userNamed = (app: TestApp, userName: string) => app.database.db.selectFrom('sysUser').selectAll().where('userName', '=', userName).executeTakeFirst();

  describe('users', () => {
    it('offers a template with the columns, required ones marked, and notes', async () => {
      const file = await download(ctx(), '/sys/user/import/template', null, admin);
      expect(decodeURIComponent(file.disposition.split("UTF-8''")[1])).toBe('用户导入模板.xlsx');
      expect(file.rows).toEqual([USER_HEADER]);
      const notes = cellTexts(file.book!.getWorksheet('填写说明')!.getColumn(1).values);
      expect(notes).toContain('启用 或 禁用');
      expect(notes).toContain('初始密码');
    });

    it('previews without writing: counts, and each bad row with its row number, column and the screen’s own reason', async () => {
      const before = await rowCount(ctx(), 'sysUser');
      const answer = await importUsers(
        [
          ['frank', '弗兰克', '启用', '超级管理员'],
          ['x', '短名', '', ''],
          ['grace', 'g'.repeat(33), '禁用', ''],
          ['heidi', '海蒂', '停用', '不存在的角色'],
          ['frank', '重复', '', ''],
        ],
        'preview',
      );
      expect(answer).toMatchObject({ code: 200, msg: '预览完成：可新增 1 条，可更新 0 条，有错误 4 行' });
      expect(answer.data).toMatchObject({ applied: 0, total: 5, created: 1, updated: 0, failed: 4, credentials: [] });
      expect(answer.data.errors).toEqual([
        { row: 3, field: '用户名', reason: '用户名长度不能少于 3 个字符' },
        { row: 4, field: '昵称', reason: '昵称长度不能超过 32 个字符' },
        { row: 5, field: '状态', reason: '状态取值不正确：请填写 启用 或 禁用' },
        { row: 5, field: '角色', reason: '角色 不存在的角色 不存在' },
        { row: 6, field: '用户名', reason: '与第 2 行的用户名重复' },
      ]);
      expect(await rowCount(ctx(), 'sysUser')).toBe(before);
      // The same words as the creation dialog's 400.
      const created = await ctx().call('/sys/user/creation', { userName: 'grace', nickName: 'g'.repeat(33), password: 'Quiet-Harbour-42', state: 1, roleId: null }, admin);
      expect(created.msg).toBe('昵称长度不能超过 32 个字符');
      const short = await ctx().call('/sys/user/creation', { userName: 'x', nickName: '短名', password: 'Quiet-Harbour-42', state: 1, roleId: null }, admin);
      expect(short.msg).toBe('用户名长度不能少于 3 个字符');
    });

    it('refuses the whole apply when one row is bad, writing nothing', async () => {
      const before = await rowCount(ctx(), 'sysUser');
      const answer = await importUsers(
        [
          ['ivan', '伊万', '', ''],
          ['judy', '', '', ''],
        ],
        'apply',
      );
      expect(answer).toEqual({ code: 400, msg: '导入未执行：1 行有错误，未写入任何数据（第 3 行 昵称：昵称不能为空）', data: null });
      expect(await rowCount(ctx(), 'sysUser')).toBe(before);
      expect(await userNamed(ctx(), 'ivan')).toBeUndefined();
    });

    it('creates every row, with labels read as values and a generated password shown once that signs in', async () => {
      const clerks = await createRole(ctx(), admin, '前台');
      const answer = await importUsers(
        [
          ['ivan', '伊万', '', '前台'],
          ['judy', "'=朱迪", '禁用', ''],
        ],
        'apply',
      );
      expect(answer).toMatchObject({ code: 200, msg: '导入成功：新增 2 条，更新 0 条', data: { applied: 1, total: 2, created: 2, updated: 0, failed: 0, errors: [] } });
      expect(answer.data.credentials.map((c) => [c.row, c.key])).toEqual([
        [2, 'ivan'],
        [3, 'judy'],
      ]);
      expect(await userNamed(ctx(), 'ivan')).toMatchObject({ nickName: '伊万', state: 1, roleId: clerks.id });
      // An exported, neutralised cell comes back as the text it was.
      expect(await userNamed(ctx(), 'judy')).toMatchObject({ nickName: '=朱迪', state: 0, roleId: null });
      const ivanPassword = answer.data.credentials[0].secret;
      expect(ivanPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
      await expect(ctx().login('ivan', ivanPassword)).resolves.toEqual(expect.any(String));
      expect((await userNamed(ctx(), 'ivan'))!.passwordHash).not.toContain(ivanPassword);
    });

    it('treats an existing user name as an error unless asked to update, then updates that user only', async () => {
      const clerks = await createRole(ctx(), admin, '客房部');
      await createUser(ctx(), admin, 'kate', clerks.id);
      const before = await rowCount(ctx(), 'sysUser');
      const refused = await importUsers([['kate', '凯特', '禁用', '']], 'preview');
      expect(refused.data.errors).toEqual([{ row: 2, field: '用户名', reason: '用户名 kate 已存在' }]);

      const kate = await userNamed(ctx(), 'kate');
      const session = await ctx().login('kate', 'Quiet-Harbour-42');
      const preview = await importUsers([['kate', '凯特', '禁用', '']], 'preview', true);
      expect(preview.data).toMatchObject({ created: 0, updated: 1, failed: 0 });
      const applied = await importUsers([['kate', '凯特', '禁用', '']], 'apply', true);
      expect(applied).toMatchObject({ code: 200, msg: '导入成功：新增 0 条，更新 1 条', data: { credentials: [] } });
      expect(await userNamed(ctx(), 'kate')).toMatchObject({ nickName: '凯特', state: 0, version: kate!.version + 1, passwordHash: kate!.passwordHash });
      expect(await rowCount(ctx(), 'sysUser')).toBe(before);
      // Disabled as on the edit screen: signed out at once.
      expect(await ctx().call('GET /sys/menu/authority', null, session)).toMatchObject({ code: 401 });
    });

    it('keeps the role and state of an existing user when those cells are empty', async () => {
      const clerks = expectOk(await ctx().call('/sys/role/inquire', { size: 20, current: 1, params: { name: '前台' } }, admin)).records[0];
      const leo = await createUser(ctx(), admin, 'leo', clerks.id);
      expectOk(await importUsers([['leo', '里奥', '', '']], 'apply', true));
      expect(await userNamed(ctx(), 'leo')).toMatchObject({ nickName: '里奥', state: 1, roleId: clerks.id, version: leo.version + 1 });
    });

    it('holds the screens’ guards: no role beyond one’s own, no built-in administrators, not oneself', async () => {
      const userGrants = await menuGrants(ctx(), '/sys/user');
      const operator = await signedInOperator(ctx(), admin, 'manager', userGrants);
      await createRole(ctx(), admin, '财务', await menuGrants(ctx(), '/sys/role'));
      await createRole(ctx(), admin, '客服', userGrants);
      const before = await rowCount(ctx(), 'sysUser');
      const answer = await importUsers(
        [
          ['mike', '迈克', '', '超级管理员'],
          ['nina', '妮娜', '', '财务'],
          ['admin', '管理员', '', ''],
          ['manager', '经理', '禁用', ''],
          ['oscar', '奥斯卡', '', '客服'],
        ],
        'preview',
        true,
        operator.token,
      );
      expect(answer.data.errors).toEqual([
        { row: 2, field: '角色', reason: '只有超级管理员可以将用户加入超级管理员角色' },
        { row: 3, field: '角色', reason: '不能将用户加入权限超出自己角色的角色' },
        { row: 4, field: '用户名', reason: '只有超级管理员可以管理超级管理员角色的用户' },
        { row: 5, field: '状态', reason: '不能禁用自己的账号' },
      ]);
      expect(answer.data).toMatchObject({ created: 1, failed: 4 });
      const applied = await importUsers([['mike', '迈克', '', '超级管理员']], 'apply', false, operator.token);
      expect(applied).toMatchObject({ code: 400, msg: expect.stringContaining('只有超级管理员可以将用户加入超级管理员角色') });
      expect(await rowCount(ctx(), 'sysUser')).toBe(before);
      const moved = await importUsers([['manager', '经理', '', '客服']], 'preview', true, operator.token);
      expect(moved.data.errors).toEqual([{ row: 2, field: '角色', reason: '不能修改自己的角色' }]);
    });

    it('is a resource of its own, like the template', async () => {
      const importIds = await ctx().database.db.selectFrom('sysResource').select('id').where('path', 'in', ['/sys/user/import', '/sys/user/import/template']).execute();
      const without = (await menuGrants(ctx(), '/sys/user')).filter((grant) => !importIds.some((r) => grant.type === 'resource' && r.id === grant.resource));
      const viewer = await signedInOperator(ctx(), admin, 'viewer', without);
      expect(await importUsers([['paul', '保罗', '', '']], 'preview', false, viewer.token)).toEqual({ code: 403, msg: '没有权限执行该操作', data: null });
      expect((await download(ctx(), '/sys/user/import/template', null, viewer.token)).envelope).toMatchObject({ code: 403 });
    });

    it('refuses what is not a usable spreadsheet, naming the problem', async () => {
      const send = (file: Buffer, type?: string) => upload(ctx(), '/sys/user/import', { mode: 'preview' }, file, admin, type);
      expect(await send(Buffer.from('userName,nickName\nquinn,Q'))).toEqual({ code: 400, msg: '文件不是有效的 .xlsx 表格', data: null });
      expect(
        await send(
          await xlsxFile([
            ['用户名', '状态'],
            ['quinn', '启用'],
          ]),
        ),
      ).toEqual({ code: 400, msg: '缺少列：昵称（请使用导入模板）', data: null });
      expect(await send(await xlsxFile([USER_HEADER, [], []]))).toEqual({ code: 400, msg: '文件中没有数据行', data: null });
      expect(await send(Buffer.from(JSON.stringify({ userName: 'quinn' })), 'application/json')).toMatchObject({ code: 400, msg: expect.stringMatching(/^请上传 \.xlsx 文件/) });
      const tooMany = Array.from({ length: 501 }, (_, index) => [`user${index}`, '批量', '', '']);
      expect(await send(await xlsxFile([USER_HEADER, ...tooMany]))).toEqual({ code: 400, msg: '每次最多导入 500 行，请拆分后分批导入', data: null });
      expect(await ctx().call('/sys/user/import', {}, admin)).toMatchObject({ code: 400 });
    });

    it('refuses a zip that declares more than it should unpack to, before unpacking it', async () => {
      const file = await xlsxFile([USER_HEADER, ['quinn', '奎因', '', '']]);
      // Patch every central-directory entry to declare 100 MB uncompressed.
      for (let at = file.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0; at = file.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)) {
        file.writeUInt32LE(100 * 1024 * 1024, at + 24);
      }
      expect(await upload(ctx(), '/sys/user/import', { mode: 'preview' }, file, admin)).toEqual({ code: 400, msg: '文件内容过大，请拆分后分批导入', data: null });
    });

    it('takes files up to 5 MB (the JSON limit does not apply) and refuses larger ones with HTTP 413', async () => {
      const response = await ctx().app.inject({
        method: 'POST',
        url: '/api/sys/user/import?mode=preview',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
        payload: Buffer.alloc(5 * 1024 * 1024 + 1),
      });
      expect(response.statusCode).toBe(413);
      const padded = await ctx().app.inject({
        method: 'POST',
        url: '/api/sys/user/import?mode=preview',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
        payload: Buffer.alloc(300 * 1024),
      });
      expect(padded.json()).toEqual({ code: 400, msg: '文件不是有效的 .xlsx 表格', data: null });
    });
  });

  describe('devices', () => {
    /** Two hotels, each a building with floor 1F and rooms 0101-0110 (甲: 主楼, 乙: 乙楼). */
    const hotels = {} as Record<'甲' | '乙', { org: number; rooms: Map<string, number> }>;
    beforeAll(async () => {
      const app = ctx();
      const root = expectOk(await app.call('GET /sys/org/tree', null, admin)).find((unit) => unit.pid === null)!.id;
      for (const [name, building, code] of [
        ['甲', '主楼', 'IMP-A'],
        ['乙', '乙楼', 'IMP-B'],
      ] as const) {
        const org = expectOk(await app.call('/sys/org/creation', { pid: root, name: `${name}酒店`, kind: 'hotel', code, state: 1, sort: 0, remark: '' }, admin)).id;
        const top = expectOk(await app.call('/hotel/location/creation', { parentId: 0, kind: 'building', name: building, sort: 0, orgId: org }, admin));
        const floor = expectOk(await app.call('/hotel/location/creation', { parentId: top.id, kind: 'floor', name: '1F', sort: 0 }, admin));
        expectOk(await app.call('/hotel/location/rooms/creation', { floorId: floor.id, from: '0101', to: '0110' }, admin));
        const rooms = await app.database.db.selectFrom('hotelLocation').select(['id', 'name']).where('parentId', '=', floor.id).execute();
        hotels[name] = { org, rooms: new Map(rooms.map((room) => [room.name, room.id])) };
      }
    });

    it('offers a template naming the device types', async () => {
      const file = await download(ctx(), '/hotel/device/import/template', null, admin);
      expect(file.rows).toEqual([DEVICE_HEADER]);
      expect(cellTexts(file.book!.getWorksheet('填写说明')!.getColumn(1).values)).toContain('智能门锁、空调控制器');
    });

    it('previews problems, refuses a bad apply, then creates devices with keys that work once shown', async () => {
      const before = await rowCount(ctx(), 'hotelDevice');
      const rows = [
        ['101 门锁', 'LOCK-0101', '智能门锁', '主楼/1F/0101', '', ''],
        ['102 电视', 'TV-0102', 'tv', '主楼 / 1F / 0102', '禁用', '=cmd|calc'],
        ['坏设备', 'X', '冰箱', '', '', ''],
      ];
      const preview = await importDevices(rows, 'preview');
      expect(preview.data).toMatchObject({ created: 2, failed: 1 });
      expect(preview.data.errors).toEqual([{ row: 4, field: '序列号', reason: '序列号格式不正确：只能包含字母、数字、_ 和 -，长度 4-64' }]);
      expect(await importDevices(rows, 'apply')).toMatchObject({ code: 400, msg: expect.stringContaining('第 4 行 序列号') });
      expect(await rowCount(ctx(), 'hotelDevice')).toBe(before);

      const typo = await importDevices([['坏设备', 'FRIDGE-01', '冰箱', '', '', '']], 'preview');
      expect(typo.data.errors).toEqual([{ row: 2, field: '设备类型', reason: '设备类型不正确：请从数据字典的设备类型中选择' }]);

      const applied = await importDevices(rows.slice(0, 2), 'apply');
      expect(applied).toMatchObject({ code: 200, msg: '导入成功：新增 2 条，更新 0 条' });
      const stored = await ctx().database.db.selectFrom('hotelDevice').selectAll().where('sn', 'in', ['LOCK-0101', 'TV-0102']).orderBy('sn').execute();
      expect(stored.map((d) => [d.sn, d.type, d.state, d.remark, d.locationId, d.orgId])).toEqual([
        ['LOCK-0101', 'lock', 1, '', hotels.甲.rooms.get('0101'), hotels.甲.org],
        ['TV-0102', 'tv', 0, '=cmd|calc', hotels.甲.rooms.get('0102'), hotels.甲.org],
      ]);
      const key = applied.data.credentials.find((c) => c.key === 'LOCK-0101')!.secret;
      const beat = await ctx().app.inject({ method: 'POST', url: '/api/hotel/device/heartbeat', headers: { 'x-device-key': key }, payload: { sn: 'LOCK-0101' } });
      expect(beat.json()).toMatchObject({ code: 200 });
    });

    it('updates devices keyed by serial number when asked, keeping their keys', async () => {
      const before = await ctx().database.db.selectFrom('hotelDevice').selectAll().where('sn', '=', 'LOCK-0101').executeTakeFirstOrThrow();
      expect((await importDevices([['101 门锁（新）', 'LOCK-0101', 'lock', '主楼/1F/0110', '', '换过电池']], 'preview')).data.errors).toEqual([
        { row: 2, field: '序列号', reason: '序列号已存在' },
      ]);
      const applied = await importDevices([['101 门锁（新）', 'LOCK-0101', 'lock', '主楼/1F/0110', '禁用', '换过电池']], 'apply', true);
      expect(applied.data).toMatchObject({ created: 0, updated: 1, credentials: [] });
      const after = await deviceWithPresence(ctx().database.db, SYSTEM_SCOPE, before.id);
      expect(after).toMatchObject({
        id: before.id,
        name: '101 门锁（新）',
        locationId: hotels.甲.rooms.get('0110'),
        remark: '换过电池',
        state: 0,
        online: 0,
        keyHash: before.keyHash,
        version: before.version + 1,
      });
    });

    it('re-imports its own export unchanged (extra columns ignored, labels read back)', async () => {
      expectOk(await ctx().call('/hotel/device/creation', { name: '网关', sn: 'GW-0001', type: 'gateway', state: 1, remark: '-机房' }, admin));
      const exported = await download(ctx(), '/hotel/device/export', {}, admin);
      const file = await xlsxFile(exported.rows);
      const answer = await upload<Summary>(ctx(), '/hotel/device/import', { mode: 'preview', updateExisting: '1' }, file, admin);
      expect(answer.data).toMatchObject({ failed: 0, created: 0, updated: exported.rows.length - 1 });
    });
    it("refuses an unknown 位置 path and one outside the caller's data scope, each with its row and reason", async () => {
      const app = ctx();
      const role = expectOk(await app.call('/sys/role/creation', { name: '甲店设备', remark: '', state: 1, dataScope: 'org' }, admin));
      expectOk(await app.call('/sys/role/auth', { roleId: role.id, grant: await menuGrants(app, '/hotel/device'), revoke: [] }, admin));
      expectOk(await app.call('/sys/user/creation', { userName: 'import.jia', nickName: '甲店', password: USER_PASSWORD, state: 1, roleId: role.id, orgId: hotels.甲.org }, admin));
      const jia = await app.login('import.jia', USER_PASSWORD);
      const rows = [
        ['甲店门锁', 'SCOPE-IMP-1', 'lock', '主楼/1F/0103', '', ''],
        ['乙店门锁', 'SCOPE-IMP-2', 'lock', '乙楼/1F/0103', '', ''],
        ['无此房间', 'SCOPE-IMP-3', 'lock', '主楼/1F/0999', '', ''],
        ['无此楼', 'SCOPE-IMP-4', 'lock', '西楼', '', ''],
      ];
      const preview = await importDevices(rows, 'preview', false, jia);
      expect(preview.data).toMatchObject({ total: 4, created: 1, failed: 3 });
      expect(preview.data.errors).toEqual([
        { row: 3, field: '位置', reason: '位置不存在或不在您的数据范围内：乙楼/1F/0103' },
        { row: 4, field: '位置', reason: '位置不存在或不在您的数据范围内：主楼/1F/0999' },
        { row: 5, field: '位置', reason: '位置不存在或不在您的数据范围内：西楼' },
      ]);
      expect(await importDevices(rows, 'apply', false, jia)).toMatchObject({ code: 400 });
      expect(await app.database.db.selectFrom('hotelDevice').select('sn').where('sn', 'like', 'SCOPE-IMP-%').execute()).toEqual([]);

      // The administrator sees every hotel: the other hotel's room is taken, and the device goes to that hotel.
      expect((await importDevices(rows.slice(0, 2), 'apply', false, admin)).data).toMatchObject({ created: 2 });
      const stored = await app.database.db.selectFrom('hotelDevice').select(['sn', 'locationId', 'orgId']).where('sn', 'like', 'SCOPE-IMP-%').orderBy('sn').execute();
      expect(stored).toEqual([
        { sn: 'SCOPE-IMP-1', locationId: hotels.甲.rooms.get('0103'), orgId: hotels.甲.org },
        { sn: 'SCOPE-IMP-2', locationId: hotels.乙.rooms.get('0103'), orgId: hotels.乙.org },
      ]);
    });
  });
});
