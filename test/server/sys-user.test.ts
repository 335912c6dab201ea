import { describeOnEachDatabase } from './support/harness';
import { USER_PASSWORD, createRole, createUser, expectOk, rowCount } from './support/sys-fixtures';

describeOnEachDatabase('sys/user', (ctx) => {
  let admin: string;
  let adminRoleId: number;
  beforeAll(async () => {
    admin = await ctx().login();
    adminRoleId = expectOk(await ctx().call('/sys/user/inquire', { size: 20, current: 1, params: { userName: 'admin' } }, admin)).records[0].roleId!;
  });

  describe('inquire', () => {
    beforeAll(async () => {
      const clerks = await createRole(ctx(), admin, '前台');
      await createUser(ctx(), admin, 'alice.w', clerks.id);
      await createUser(ctx(), admin, 'bob_k', null);
    });

    it('pages users ordered by id with their role name and one total', async () => {
      const page = expectOk(await ctx().call('/sys/user/inquire', { size: 2, current: 1 }, admin));
      expect(page.total).toBe(3);
      expect(page.records.map((u) => u.userName)).toEqual(['admin', 'alice.w']);
      expect(page.records[0]).toMatchObject({ roleName: '超级管理员', state: 1 });
      expect(page.records[0]).not.toHaveProperty('passwordHash');
      const second = expectOk(await ctx().call('/sys/user/inquire', { size: 2, current: 2 }, admin));
      expect(second.records.map((u) => u.userName)).toEqual(['bob_k']);
      expect(second.records[0].roleName).toBeNull();
    });

    it('filters by contained user name (case-insensitive, wildcards as text), nick name, state and role', async () => {
      const names = async (params: Record<string, unknown>) =>
        expectOk(await ctx().call('/sys/user/inquire', { size: 20, current: 1, params }, admin)).records.map((u) => u.userName);
      expect(await names({ userName: 'ALI' })).toEqual(['alice.w']);
      expect(await names({ userName: '_' })).toEqual(['bob_k']);
      expect(await names({ userName: '%' })).toEqual([]);
      expect(await names({ nickName: 'bob' })).toEqual(['bob_k']);
      expect(await names({ roleId: adminRoleId })).toEqual(['admin']);
      expect(await names({ state: 0 })).toEqual([]);
      expect(await names({ userName: '' })).toHaveLength(3);
    });

    it('skips the users before a page by number without joining their roles, unless the order is the role name', async () => {
      const reads = ctx().app.reads.getExecutor();
      const statements = jest.spyOn(reads, 'executeQuery');
      /** The SQL that skipped the users before page 2 (the one with an offset). */
      const skipping = async (sort?: object) => {
        statements.mockClear();
        const page = expectOk(await ctx().call('/sys/user/inquire', { size: 1, current: 2, ...(sort ? { sort } : {}) }, admin));
        const sql = statements.mock.calls.map(([query]) => query.sql).find((text) => /offset/i.test(text));
        // The ids' subquery: `in (…)` on SQLite, `= any(array(…))` on PostgreSQL (idInSubquery).
        const subquery = sql?.search(/ in \(| = any\(array\(/) ?? -1;
        return { userNames: page.records.map((u) => u.userName), skippedWith: sql && subquery >= 0 ? sql.slice(subquery) : '' };
      };
      try {
        const byId = await skipping();
        expect(byId.userNames).toEqual(['alice.w']);
        expect(byId.skippedWith).toMatch(/offset/i);
        expect(byId.skippedWith).not.toMatch(/sys_role/);
        // Descending, no role (bob_k) comes first, then 超级管理员 before 前台.
        const byRole = await skipping({ field: 'roleName', order: 'descend' });
        expect(byRole.userNames).toEqual(['admin']);
        expect(byRole.skippedWith).toMatch(/sys_role/);
      } finally {
        statements.mockRestore();
      }
    });

    it('refuses a page size over 100 and unknown filter keys, and answers an empty page past the end', async () => {
      expect(await ctx().call('/sys/user/inquire', { size: 101, current: 1 }, admin)).toMatchObject({ code: 400, msg: '每页条数不能大于 100' });
      expect(await ctx().call('/sys/user/inquire', { size: 20, current: 1, params: { password: 'x' } }, admin)).toMatchObject({
        code: 400,
        msg: '不支持的字段：password',
      });
      const past = expectOk(await ctx().call('/sys/user/inquire', { size: 20, current: 9 }, admin));
      expect(past).toEqual({ records: [], current: 9, size: 20, total: 3, totalIsLowerBound: false });
    });
  });

  describe('creation', () => {
    it('creates a user who can sign in, answering 账号添加成功 with the name', async () => {
      const answer = await ctx().call('/sys/user/creation', { userName: 'carol', nickName: '卡罗尔', password: USER_PASSWORD, state: 1, roleId: adminRoleId }, admin);
      expect(answer).toMatchObject({ code: 200, msg: '账号添加成功：carol', data: { userName: 'carol', roleName: '超级管理员', version: 0 } });
      await expect(ctx().login('carol', USER_PASSWORD)).resolves.toEqual(expect.any(String));
    });

    it('refuses invalid fields naming them, writing nothing', async () => {
      const before = await rowCount(ctx(), 'sysUser');
      const create = (fields: Record<string, unknown>) =>
        ctx().call('/sys/user/creation', { userName: 'dave', nickName: '戴夫', password: USER_PASSWORD, state: 1, roleId: null, ...fields }, admin);
      expect(await create({ userName: 'a b' })).toMatchObject({ code: 400, msg: expect.stringContaining('用户名格式不正确') });
      expect(await create({ nickName: '' })).toMatchObject({ code: 400, msg: '昵称不能为空' });
      expect(await create({ password: 'short' })).toMatchObject({ code: 400, msg: '密码长度不能少于 8 个字符' });
      expect(await create({ password: 'dave-is-great' })).toMatchObject({ code: 400, msg: '密码不能包含用户名' });
      expect(await create({ password: 'password123' })).toMatchObject({ code: 400, msg: expect.stringContaining('密码过于常见') });
      expect(await create({ state: 2 })).toMatchObject({ code: 400, msg: '状态不能大于 1' });
      expect(await rowCount(ctx(), 'sysUser')).toBe(before);
    });

    it('answers 409 naming a user name already taken, and 404 for an unknown role', async () => {
      const before = await rowCount(ctx(), 'sysUser');
      expect(await ctx().call('/sys/user/creation', { userName: 'carol', nickName: '另一个', password: USER_PASSWORD, state: 1, roleId: null }, admin)).toMatchObject({
        code: 409,
        msg: '用户名 carol 已存在',
      });
      expect(await ctx().call('/sys/user/creation', { userName: 'erin', nickName: '艾琳', password: USER_PASSWORD, state: 1, roleId: 999999 }, admin)).toMatchObject({
        code: 404,
        msg: '角色不存在',
      });
      expect(await rowCount(ctx(), 'sysUser')).toBe(before);
    });
  });

  describe('detail and edit', () => {
    it('answers a user by id, 404 for an unknown one', async () => {
      const frank = await createUser(ctx(), admin, 'frank', null);
      expect(expectOk(await ctx().call('/sys/user/detail', { id: frank.id }, admin))).toEqual(frank);
      expect(await ctx().call('/sys/user/detail', { id: 999999 }, admin)).toMatchObject({ code: 404, msg: '用户不存在' });
    });

    it('edits nick name, state and role, bumping the version; a stale version is 409', async () => {
      const gina = await createUser(ctx(), admin, 'gina', null);
      const edited = expectOk(await ctx().call('/sys/user/edit', { id: gina.id, nickName: '吉娜', state: 1, roleId: adminRoleId, version: gina.version }, admin));
      expect(edited).toMatchObject({ nickName: '吉娜', roleId: adminRoleId, roleName: '超级管理员', version: gina.version + 1 });
      expect(await ctx().call('/sys/user/edit', { id: gina.id, nickName: '旧的', state: 1, roleId: null, version: gina.version }, admin)).toMatchObject({
        code: 409,
        msg: '数据已被他人修改，请刷新后重试',
      });
      expect(expectOk(await ctx().call('/sys/user/detail', { id: gina.id }, admin)).nickName).toBe('吉娜');
    });

    it('refuses an unknown id (404) and invalid fields (400) without writing', async () => {
      const hank = await createUser(ctx(), admin, 'hank', null);
      expect(await ctx().call('/sys/user/edit', { id: 999999, nickName: 'x', state: 1, roleId: null, version: 0 }, admin)).toMatchObject({ code: 404, msg: '用户不存在' });
      expect(await ctx().call('/sys/user/edit', { id: hank.id, nickName: ' 空格', state: 1, roleId: null, version: 0 }, admin)).toMatchObject({
        code: 400,
        msg: expect.stringContaining('昵称格式不正确'),
      });
      expect(await ctx().call('/sys/user/edit', { id: hank.id, nickName: 'x', state: 1, roleId: null, version: 0, password: USER_PASSWORD }, admin)).toMatchObject({
        code: 400,
        msg: '不支持的字段：password',
      });
      expect(expectOk(await ctx().call('/sys/user/detail', { id: hank.id }, admin))).toEqual(hank);
    });

    it('disabling a user revokes their sessions at once; re-enabling does not revive the old token', async () => {
      const ivy = await createUser(ctx(), admin, 'ivy', adminRoleId);
      const token = await ctx().login('ivy', USER_PASSWORD);
      expect((await ctx().call('GET /sys/menu/authority', null, token)).code).toBe(200);
      const disabled = expectOk(await ctx().call('/sys/user/edit', { id: ivy.id, nickName: ivy.nickName, state: 0, roleId: adminRoleId, version: ivy.version }, admin));
      expect((await ctx().call('GET /sys/menu/authority', null, token)).code).toBe(401);
      expectOk(await ctx().call('/sys/user/edit', { id: ivy.id, nickName: ivy.nickName, state: 1, roleId: adminRoleId, version: disabled.version }, admin));
      expect((await ctx().call('GET /sys/menu/authority', null, token)).code).toBe(401);
      await expect(ctx().login('ivy', USER_PASSWORD)).resolves.toEqual(expect.any(String));
    });

    it('refuses disabling yourself or leaving your own role', async () => {
      const me = expectOk(await ctx().call('/sys/user/inquire', { size: 1, current: 1, params: { userName: 'admin' } }, admin)).records[0];
      expect(await ctx().call('/sys/user/edit', { id: me.id, nickName: me.nickName, state: 0, roleId: me.roleId, version: me.version }, admin)).toMatchObject({
        code: 400,
        msg: '不能禁用自己的账号',
      });
      expect(await ctx().call('/sys/user/edit', { id: me.id, nickName: me.nickName, state: 1, roleId: null, version: me.version }, admin)).toMatchObject({
        code: 400,
        msg: '不能修改自己的角色',
      });
      expect((await ctx().call('GET /sys/menu/authority', null, admin)).code).toBe(200);
    });
  });

  describe('password reset', () => {
    it("sets another user's password and ends their sessions", async () => {
      const jack = await createUser(ctx(), admin, 'jack', adminRoleId);
      const token = await ctx().login('jack', USER_PASSWORD);
      const answer = await ctx().call('/sys/user/password/reset', { id: jack.id, password: 'Brand-New-Lantern-7' }, admin);
      expect(answer).toMatchObject({ code: 200, msg: '已重置 jack 的密码，该用户需重新登录' });
      expect((await ctx().call('GET /sys/menu/authority', null, token)).code).toBe(401);
      await expect(ctx().login('jack', USER_PASSWORD)).rejects.toThrow(/用户名或密码错误/);
      await expect(ctx().login('jack', 'Brand-New-Lantern-7')).resolves.toEqual(expect.any(String));
    });

    it('applies the password policy, refuses your own account and unknown ids', async () => {
      const kate = await createUser(ctx(), admin, 'kate', adminRoleId);
      expect(await ctx().call('/sys/user/password/reset', { id: kate.id, password: 'kate-1234' }, admin)).toMatchObject({ code: 400, msg: '密码不能包含用户名' });
      expect(await ctx().call('/sys/user/password/reset', { id: kate.id, password: '1234567' }, admin)).toMatchObject({ code: 400, msg: '新密码长度不能少于 8 个字符' });
      await expect(ctx().login('kate', USER_PASSWORD)).resolves.toEqual(expect.any(String));
      const me = expectOk(await ctx().call('/sys/user/inquire', { size: 1, current: 1 }, admin)).records[0];
      expect(await ctx().call('/sys/user/password/reset', { id: me.id, password: 'Brand-New-Lantern-7' }, admin)).toMatchObject({ code: 400 });
      expect(await ctx().call('/sys/user/password/reset', { id: 999999, password: 'Brand-New-Lantern-7' }, admin)).toMatchObject({ code: 404, msg: '用户不存在' });
    });
  });
});
