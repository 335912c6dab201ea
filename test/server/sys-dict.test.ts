import { describeOnEachDatabase } from './support/harness';
import { expectOk, menuId, rowCount } from './support/sys-fixtures';

const entryFields = { code: 'room_kind', label: '标准间', value: 'standard', sort: 1, state: 1, remark: '' };

describeOnEachDatabase('sys/dict', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });

  /** The id of a seeded field resource, e.g. fieldResource('/sys/user', 'field_state'). */
  const fieldResource = async (menuPath: string, type: string) => {
    const row = await ctx()
      .database.db.selectFrom('sysResource')
      .select('id')
      .where('menuId', '=', await menuId(ctx(), menuPath))
      .where('type', '=', type)
      .executeTakeFirstOrThrow();
    return row.id;
  };

  describe('entries', () => {
    it('pages entries ordered by code then sort, with code, label and state filters', async () => {
      const page = expectOk(await ctx().call('/sys/dict/inquire', { size: 100, current: 1 }, admin));
      const keys = page.records.map((d) => [d.code, d.sort] as const);
      expect(keys).toEqual([...keys].sort(([c1, s1], [c2, s2]) => c1.localeCompare(c2) || s1 - s2));
      expect(page.total).toBe(await rowCount(ctx(), 'sysDict'));

      const devices = expectOk(await ctx().call('/sys/dict/inquire', { size: 20, current: 1, params: { code: 'DEVICE_TYPE' } }, admin));
      expect(devices.records.map((d) => d.value)).toEqual(['lock', 'aircon', 'panel', 'gateway', 'tv']);
      const labelled = expectOk(await ctx().call('/sys/dict/inquire', { size: 20, current: 1, params: { label: '启用' } }, admin));
      expect(labelled.records.map((d) => d.code)).toEqual(['common_state']);
      expect(expectOk(await ctx().call('/sys/dict/inquire', { size: 20, current: 1, params: { state: 0 } }, admin)).total).toBe(0);
    });

    it('checks paging bounds and filter keys', async () => {
      expect(await ctx().call('/sys/dict/inquire', { size: 101, current: 1 }, admin)).toMatchObject({ code: 400, msg: '每页条数不能大于 100' });
      expect(await ctx().call('/sys/dict/inquire', { size: 20, current: 0 }, admin)).toMatchObject({ code: 400, msg: '页码不能小于 1' });
      expect(await ctx().call('/sys/dict/inquire', { size: 20, current: 1, params: { value: '1' } }, admin)).toMatchObject({ code: 400, msg: '不支持的字段：value' });
      const total = await rowCount(ctx(), 'sysDict');
      expect(expectOk(await ctx().call('/sys/dict/inquire', { size: 20, current: 50 }, admin))).toEqual({ records: [], current: 50, size: 20, total, totalIsLowerBound: false });
    });

    it('creates an entry; refuses invalid fields and a duplicate (code, value) without writing', async () => {
      const created = await ctx().call('/sys/dict/creation', entryFields, admin);
      expect(created).toMatchObject({ code: 200, data: { ...entryFields, version: 0 } });
      const before = await rowCount(ctx(), 'sysDict');
      expect(await ctx().call('/sys/dict/creation', { ...entryFields, label: '另一个' }, admin)).toMatchObject({ code: 409, msg: '字典 room_kind 中已存在值 standard' });
      expect(await ctx().call('/sys/dict/creation', { ...entryFields, code: 'Room-Kind' }, admin)).toMatchObject({ code: 400, msg: expect.stringContaining('字典编码格式不正确') });
      expect(await ctx().call('/sys/dict/creation', { ...entryFields, value: 'x', label: '' }, admin)).toMatchObject({ code: 400, msg: '名称不能为空' });
      expect(await ctx().call('/sys/dict/creation', { ...entryFields, value: 'x', sort: 10000 }, admin)).toMatchObject({ code: 400, msg: '排序不能大于 9999' });
      expect(await rowCount(ctx(), 'sysDict')).toBe(before);
    });

    it('edits an entry with its version; refuses stale, duplicate and unknown', async () => {
      const entry = expectOk(await ctx().call('/sys/dict/creation', { ...entryFields, label: '大床房', value: 'king', sort: 2 }, admin));
      const edit = (fields: Record<string, unknown>) =>
        ctx().call('/sys/dict/edit', { ...entryFields, id: entry.id, label: entry.label, value: entry.value, sort: entry.sort, version: entry.version, ...fields }, admin);
      const edited = expectOk(await edit({ label: '大床房（新）' }));
      expect(edited).toMatchObject({ label: '大床房（新）', value: 'king', version: entry.version + 1 });
      expect(await edit({ label: '旧' })).toMatchObject({ code: 409, msg: '数据已被他人修改，请刷新后重试' });
      expect(await edit({ value: 'standard', version: edited.version })).toMatchObject({ code: 409, msg: '字典 room_kind 中已存在值 standard' });
      expect(await edit({ id: 999999 })).toMatchObject({ code: 404, msg: '字典不存在' });
      const stored = expectOk(await ctx().call('/sys/dict/inquire', { size: 20, current: 1, params: { code: 'room_kind' } }, admin)).records;
      expect(stored.find((d) => d.id === entry.id)).toEqual(edited);
    });
  });

  describe('bindings to field resources', () => {
    it('lists field resources with their menu name and whether the entry is bound', async () => {
      const enabled = expectOk(await ctx().call('/sys/dict/inquire', { size: 20, current: 1, params: { code: 'common_state', label: '启用' } }, admin)).records[0];
      const page = expectOk(await ctx().call('/sys/resource/inquires', { size: 100, current: 1, params: { dictId: enabled.id } }, admin));
      expect(page.records.every((r) => r.type.startsWith('field_'))).toBe(true);
      expect(page.total).toBe(page.records.length);
      expect(page.records.find((r) => r.menuName === '用户管理' && r.type === 'field_state')).toMatchObject({ bound: 1 });
      expect(page.records.find((r) => r.menuName === '设备管理' && r.type === 'field_type')).toMatchObject({ bound: 0 });

      const deviceMenu = await menuId(ctx(), '/hotel/device');
      const device = expectOk(await ctx().call('/sys/resource/inquires', { size: 20, current: 1, params: { dictId: enabled.id, menuId: deviceMenu } }, admin));
      expect(device.records.map((r) => r.type).sort()).toEqual(['field_online', 'field_state', 'field_type']);
      expect(expectOk(await ctx().call('/sys/resource/inquires', { size: 2, current: 5, params: { dictId: enabled.id, menuId: deviceMenu } }, admin))).toEqual({
        records: [],
        current: 5,
        size: 2,
        total: 3,
        totalIsLowerBound: false,
      });
    });

    it('refuses an unknown or missing dictionary id', async () => {
      expect(await ctx().call('/sys/resource/inquires', { size: 20, current: 1, params: { dictId: 999999 } }, admin)).toMatchObject({ code: 404, msg: '字典不存在' });
      expect(await ctx().call('/sys/resource/inquires', { size: 20, current: 1, params: {} }, admin)).toMatchObject({ code: 400, msg: '字典不能为空' });
    });

    it('binds and unbinds idempotently, feeding the menu dictionary', async () => {
      const entry = expectOk(await ctx().call('/sys/dict/creation', { code: 'common_state', label: '待审核', value: '2', sort: 3, state: 1, remark: '' }, admin));
      const resourceId = await fieldResource('/sys/user', 'field_state');
      const userMenu = await menuId(ctx(), '/sys/user');
      const options = async () =>
        expectOk(await ctx().call('/sys/dict/resource/inquire', { menuId: userMenu }, admin))
          .filter((o) => o.field === 'state')
          .map((o) => o.label);

      expect(await ctx().call('/sys/dict/bind', { resourceId, dictId: entry.id }, admin)).toEqual({ code: 200, msg: '绑定成功', data: null });
      expect(await ctx().call('/sys/dict/bind', { resourceId, dictId: entry.id }, admin)).toEqual({ code: 200, msg: '绑定成功', data: null });
      const rows = await ctx().database.db.selectFrom('sysDictResource').select('id').where('resourceId', '=', resourceId).where('dictId', '=', entry.id).execute();
      expect(rows).toHaveLength(1);
      expect(await options()).toEqual(['启用', '禁用', '待审核']);

      expect(await ctx().call('/sys/dict/unbind', { resourceId, dictId: entry.id }, admin)).toEqual({ code: 200, msg: '解绑成功', data: null });
      expect(await ctx().call('/sys/dict/unbind', { resourceId, dictId: entry.id }, admin)).toEqual({ code: 200, msg: '解绑成功', data: null });
      expect(await options()).toEqual(['启用', '禁用']);
    });

    it('refuses unknown ids and non-field resources without writing', async () => {
      const entry = expectOk(await ctx().call('/sys/dict/inquire', { size: 1, current: 1 }, admin)).records[0];
      const field = await fieldResource('/sys/user', 'field_state');
      const api = await fieldResource('/sys/user', 'api_inquire');
      const before = await rowCount(ctx(), 'sysDictResource');
      expect(await ctx().call('/sys/dict/bind', { resourceId: 999999, dictId: entry.id }, admin)).toMatchObject({ code: 404, msg: '资源不存在' });
      expect(await ctx().call('/sys/dict/bind', { resourceId: field, dictId: 999999 }, admin)).toMatchObject({ code: 404, msg: '字典不存在' });
      expect(await ctx().call('/sys/dict/unbind', { resourceId: 999999, dictId: entry.id }, admin)).toMatchObject({ code: 404, msg: '资源不存在' });
      expect(await ctx().call('/sys/dict/bind', { resourceId: api, dictId: entry.id }, admin)).toMatchObject({ code: 400, msg: '只有字段资源（field_）可以绑定字典' });
      expect(await ctx().call('/sys/dict/bind', { resourceId: field }, admin)).toMatchObject({ code: 400, msg: '字典不能为空' });
      expect(await rowCount(ctx(), 'sysDictResource')).toBe(before);
    });
  });
});
