/**
 * Issue 25 item 14 / issue 27: a call made with a session the server ended answers 401 with why
 * (`reason` in the envelope, msg in words), so the sign-in page can say an administrator ended
 * it; an unknown token still answers the plain 401. Read back from the login log's record of
 * the end, so it holds on any instance and after a restart.
 */
import { Code } from '../../src/contract/constants';
import { describeOnEachDatabase, type TestApp } from './support/harness';
import { expectOk, menuGrants, signedInOperator, USER_PASSWORD } from './support/sys-fixtures';

const whoAmI = (app: TestApp, token: string) => app.call('GET /sys/menu/authority', null, token);

describeOnEachDatabase('the 401 of an ended session names the reason', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });

  const operator = async (name: string) => signedInOperator(ctx(), admin, name, await menuGrants(ctx(), '/hotel/device'));

  it('forced out from 在线用户: reason forced, with who did it', async () => {
    const { user, token } = await operator('end_forced');
    expect((await whoAmI(ctx(), token)).code).toBe(Code.ok);
    expectOk(await ctx().call('/monitor/online/revoke/user', { userId: user.id }, admin));
    expect(await whoAmI(ctx(), token)).toEqual({ code: Code.unauthorized, msg: '被 admin 强制下线，请重新登录', data: null, reason: 'forced' });
    // Every later call says the same.
    expect(await whoAmI(ctx(), token)).toMatchObject({ code: Code.unauthorized, reason: 'forced' });
  });

  it('password reset by an administrator, account disabled, signed out', async () => {
    const reset = await operator('end_reset');
    expectOk(await ctx().call('/sys/user/password/reset', { id: reset.user.id, password: 'Other-Harbour-77' }, admin));
    expect(await whoAmI(ctx(), reset.token)).toMatchObject({ code: Code.unauthorized, reason: 'passwordChanged', msg: '密码被 admin 重置，请重新登录' });

    const disabled = await operator('end_disabled');
    expectOk(await ctx().call('/sys/user/edit', { id: disabled.user.id, nickName: 'x', state: 0, roleId: disabled.role.id, version: disabled.user.version }, admin));
    expect(await whoAmI(ctx(), disabled.token)).toMatchObject({ code: Code.unauthorized, reason: 'disabled', msg: '账号被 admin 禁用，请重新登录' });

    const signedOut = await operator('end_logout');
    expectOk(await ctx().call('/sys/user/logout', null, signedOut.token));
    expect(await whoAmI(ctx(), signedOut.token)).toMatchObject({ code: Code.unauthorized, reason: 'signOut', msg: '已退出登录，请重新登录' });
  });

  it('a session past its idle time: reason expired, at its first use and after', async () => {
    const { user, token } = await operator('end_idle');
    await ctx().database.db.updateTable('sysSession').set({ lastSeenAt: 1 }).where('userId', '=', user.id).execute();
    expect(await whoAmI(ctx(), token)).toMatchObject({ code: Code.unauthorized, reason: 'expired', msg: '会话已过期，请重新登录' });
    expect(await whoAmI(ctx(), token)).toMatchObject({ code: Code.unauthorized, reason: 'expired' });
  });

  it('only the ended session: the same user signed in elsewhere goes on, an unknown token gets no reason', async () => {
    const { user, token } = await operator('end_one');
    const other = await ctx().login('end_one', USER_PASSWORD);
    const sessions = await ctx().database.db.selectFrom('sysSession').select('id').where('userId', '=', user.id).where('revokedAt', 'is', null).orderBy('id').execute();
    expect(sessions).toHaveLength(2);
    expectOk(await ctx().call('/monitor/online/revoke', { sessionId: sessions[0].id }, admin));
    expect(await whoAmI(ctx(), token)).toMatchObject({ code: Code.unauthorized, reason: 'forced' });
    expect((await whoAmI(ctx(), other)).code).toBe(Code.ok);

    const unknown = await whoAmI(ctx(), 'x'.repeat(43));
    expect(unknown).toEqual({ code: Code.unauthorized, msg: '登录已失效，请重新登录', data: null });
  });
});
