import { describeOnEachDatabase } from './support/harness';
import type { EndpointKey } from '../../src/contract';
import { expectOk, rowCount, signedInOperator, expectRefused } from './support/sys-fixtures';

const ENDPOINTS: EndpointKey[] = ['/hotel/advanced/inquire', '/hotel/advanced/creation', '/hotel/advanced/edit', '/hotel/advanced/jd/edit'];
const SECRET = 'sk_live_7d1c0e55b2aa43f9a';

const setting = (name: string, overrides: Record<string, unknown> = {}) => ({
  name,
  endpointUrl: 'https://open.example.com/api',
  appKey: 'hotel-app-01',
  appSecret: SECRET,
  state: 1,
  remark: '',
  ...overrides,
});

describeOnEachDatabase('hotel/advanced', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });
  /** The raw body, to prove the secret appears nowhere in it (not only not in the parsed fields). */
  const raw = async (key: EndpointKey, body: unknown) => {
    const response = await ctx().app.inject({ method: 'POST', url: `/api${key}`, headers: { authorization: `Bearer ${admin}` }, payload: body as object });
    return { text: response.body, json: response.json() };
  };
  const create = async (body: Record<string, unknown>) => expectOk(await ctx().call('/hotel/advanced/creation', body, admin));
  const stored = (id: number) => ctx().database.db.selectFrom('hotelAdvanced').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  describe('creation and inquire', () => {
    it('saves a setting and never sends its secret back, only a mask', async () => {
      const created = await raw('/hotel/advanced/creation', setting('京东对接'));
      expect(created.json).toMatchObject({
        code: 200,
        msg: '保存成功',
        data: { name: '京东对接', endpointUrl: 'https://open.example.com/api', appKey: 'hotel-app-01', appSecretMasked: '******3f9a', initialisedAt: null, version: 0 },
      });
      expect(created.text).not.toContain(SECRET);
      expect(created.json.data).not.toHaveProperty('appSecret');
      expect((await stored(created.json.data.id)).appSecret).toBe(SECRET);

      const listed = await raw('/hotel/advanced/inquire', { size: 20, current: 1 });
      expect(listed.json.data.records).toEqual([expect.objectContaining({ name: '京东对接', appSecretMasked: '******3f9a' })]);
      expect(listed.text).not.toContain(SECRET);
      expect(listed.text).not.toContain('sk_live');
    });

    it('masks short secrets entirely and shows an empty mask when there is none', async () => {
      expect((await create(setting('短密钥', { appSecret: 'abc12345' }))).appSecretMasked).toBe('******');
      expect((await create(setting('无密钥', { appSecret: '' }))).appSecretMasked).toBe('');
    });

    it('filters by contained name and state', async () => {
      await create(setting('筛选_停用', { state: 0 }));
      const names = async (params: Record<string, unknown>) =>
        expectOk(await ctx().call('/hotel/advanced/inquire', { size: 100, current: 1, params }, admin)).records.map((r) => r.name);
      expect(await names({ name: '筛选_' })).toEqual(['筛选_停用']);
      expect(await names({ name: '_' })).toEqual(['筛选_停用']);
      expect(await names({ state: 0 })).toEqual(['筛选_停用']);
      expect(await names({ name: '京东' })).toEqual(['京东对接']);
    });

    it.each([
      ['a non-http URL', { endpointUrl: 'ftp://open.example.com' }, '接口地址格式不正确：应为 http:// 或 https:// 开头的完整地址'],
      ['a URL that is not one', { endpointUrl: 'open.example.com/api' }, '接口地址格式不正确：应为 http:// 或 https:// 开头的完整地址'],
      ['an empty name', { name: '' }, '配置名称不能为空'],
      ['a too long secret', { appSecret: 'x'.repeat(201) }, 'App Secret长度不能超过 200 个字符'],
      ['an unknown field', { initialisedAt: 1 }, '不支持的字段：initialisedAt'],
    ])('refuses %s with a 400, writing nothing', async (_case, overrides, msg) => {
      const before = await rowCount(ctx(), 'hotelAdvanced');
      expectRefused(await ctx().call('/hotel/advanced/creation', setting('不应保存', overrides), admin), msg);
      expect(await rowCount(ctx(), 'hotelAdvanced')).toBe(before);
    });

    it('refuses a duplicate name with a 409', async () => {
      const before = await rowCount(ctx(), 'hotelAdvanced');
      expect(await ctx().call('/hotel/advanced/creation', setting('京东对接'), admin)).toEqual({ code: 409, msg: '配置名称已存在', data: null });
      expect(await rowCount(ctx(), 'hotelAdvanced')).toBe(before);
    });
  });

  describe('edit', () => {
    it('keeps the stored secret when the edit leaves it empty, and replaces it when given', async () => {
      const created = await create(setting('编辑密钥'));
      const kept = await raw('/hotel/advanced/edit', { ...setting('编辑密钥', { appSecret: '', remark: '只改备注' }), id: created.id, version: 0 });
      expect(kept.json).toMatchObject({ code: 200, msg: '保存成功', data: { remark: '只改备注', appSecretMasked: '******3f9a', version: 1 } });
      expect(kept.text).not.toContain(SECRET);
      expect((await stored(created.id)).appSecret).toBe(SECRET);

      const replaced = await raw('/hotel/advanced/edit', { ...setting('编辑密钥', { appSecret: 'new-secret-0000-beef' }), id: created.id, version: 1 });
      expect(replaced.json.data.appSecretMasked).toBe('******beef');
      expect(replaced.text).not.toContain('new-secret-0000-beef');
      expect((await stored(created.id)).appSecret).toBe('new-secret-0000-beef');
    });

    it('clears initialisedAt when the platform parameters change, and only then', async () => {
      const created = await create(setting('参数变更'));
      expectOk(await ctx().call('/hotel/advanced/jd/edit', { id: created.id }, admin));
      const renamed = expectOk(await ctx().call('/hotel/advanced/edit', { ...setting('参数变更2', { appSecret: '' }), id: created.id, version: 0 }, admin));
      expect(renamed.initialisedAt).not.toBeNull();
      const moved = expectOk(
        await ctx().call('/hotel/advanced/edit', { ...setting('参数变更2', { appSecret: '', endpointUrl: 'https://open2.example.com' }), id: created.id, version: 1 }, admin),
      );
      expect(moved.initialisedAt).toBeNull();
    });

    it('refuses a stale version, an unknown id, a duplicate name and a bad URL, changing nothing', async () => {
      const target = await create(setting('被编辑'));
      await create(setting('已占用'));
      const edit = (overrides: Record<string, unknown>) => ctx().call('/hotel/advanced/edit', { ...setting('被编辑'), id: target.id, version: 0, ...overrides }, admin);
      expect(await edit({ version: 5 })).toEqual({ code: 409, msg: '数据已被他人修改，请刷新后重试', data: null });
      expect(await edit({ id: 999_999 })).toEqual({ code: 404, msg: '高级设置不存在', data: null });
      expect(await edit({ name: '已占用' })).toEqual({ code: 409, msg: '配置名称已存在', data: null });
      expect(await edit({ endpointUrl: 'javascript:alert(1)' })).toMatchObject({ code: 400 });
      expect(await stored(target.id)).toMatchObject({ name: '被编辑', endpointUrl: 'https://open.example.com/api', version: 0 });
    });
  });

  describe('initialisation', () => {
    it('stamps initialisedAt with 初始化成功 and is idempotent', async () => {
      const created = await create(setting('初始化'));
      const first = await raw('/hotel/advanced/jd/edit', { id: created.id });
      expect(first.json).toMatchObject({ code: 200, msg: '初始化成功', data: { id: created.id, initialisedAt: expect.any(Number), appSecretMasked: '******3f9a' } });
      expect(first.text).not.toContain(SECRET);
      const afterFirst = await stored(created.id);

      const second = await ctx().call('/hotel/advanced/jd/edit', { id: created.id }, admin);
      expect(second).toEqual(first.json);
      expect(await stored(created.id)).toEqual(afterFirst);
    });

    it.each([
      ['everything', { endpointUrl: '', appKey: '', appSecret: '' }, '无法初始化：缺少 接口地址、App Key、App Secret'],
      ['the secret', { appSecret: '' }, '无法初始化：缺少 App Secret'],
      ['the app key', { appKey: '' }, '无法初始化：缺少 App Key'],
      ['the endpoint', { endpointUrl: '' }, '无法初始化：缺少 接口地址'],
    ])('names what is missing when %s is absent, stamping nothing', async (what, overrides, msg) => {
      const created = await create(setting(`缺少 ${what}`, overrides));
      expectRefused(await ctx().call('/hotel/advanced/jd/edit', { id: created.id }, admin), msg);
      expect((await stored(created.id)).initialisedAt).toBeNull();
    });

    it('refuses a malformed stored URL and a disabled setting, and an unknown id with a 404', async () => {
      const broken = await create(setting('旧数据'));
      await ctx().database.db.updateTable('hotelAdvanced').set({ endpointUrl: 'not a url' }).where('id', '=', broken.id).execute();
      expect(await ctx().call('/hotel/advanced/jd/edit', { id: broken.id }, admin)).toEqual({
        code: 400,
        msg: '无法初始化：接口地址格式不正确：应为 http:// 或 https:// 开头的完整地址',
        data: null,
      });
      const disabled = await create(setting('已停用', { state: 0 }));
      expectRefused(await ctx().call('/hotel/advanced/jd/edit', { id: disabled.id }, admin), '无法初始化：该配置已停用，请先启用');
      expect((await stored(disabled.id)).initialisedAt).toBeNull();
      expect(await ctx().call('/hotel/advanced/jd/edit', { id: 999_999 }, admin)).toEqual({ code: 404, msg: '高级设置不存在', data: null });
    });
  });

  describe('access', () => {
    it('refuses every endpoint to a role without the advanced-settings resources', async () => {
      const { token } = await signedInOperator(ctx(), admin, 'no_advanced', []);
      const target = await create(setting('访问控制'));
      const bodies: Record<string, unknown> = {
        '/hotel/advanced/inquire': { size: 20, current: 1 },
        '/hotel/advanced/creation': setting('越权新增'),
        '/hotel/advanced/edit': { ...setting('越权修改'), id: target.id, version: 0 },
        '/hotel/advanced/jd/edit': { id: target.id },
      };
      const before = await stored(target.id);
      for (const key of ENDPOINTS) {
        expect([key, await ctx().call(key, bodies[key] as never, token)]).toEqual([key, { code: 403, msg: '没有权限执行该操作', data: null }]);
      }
      expect(await stored(target.id)).toEqual(before);
      expect(await ctx().database.db.selectFrom('hotelAdvanced').select('id').where('name', '=', '越权新增').executeTakeFirst()).toBeUndefined();
    });
  });
});
