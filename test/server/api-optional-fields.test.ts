/**
 * Issue 13: fields that may be empty may also be left out (remark, roleId, a menu's path/element/
 * icon/pid, a device's room, an integration's address and key): the server fills in the empty
 * value. A wrong value still gets its Chinese message, and the OpenAPI document says which are
 * required.
 */
import { describeOnEachDatabase } from './support/harness';
import { contract } from '../../src/contract';

describeOnEachDatabase('optional fields', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });

  it.each([
    ['/sys/role/creation', { name: '只填名称的角色', state: 1 }, { remark: '' }],
    ['/sys/user/creation', { userName: 'no.role', nickName: '无角色', password: 'Optional-Pass-42', state: 1 }, { roleId: null }],
    ['/sys/menu/creation', { name: '只填必填的菜单', sort: 5, state: 1, isAuth: 0 }, { pid: null, path: '', element: '', icon: '' }],
    ['/sys/dict/creation', { code: 'optional_test', label: '可选', value: '1', sort: 0, state: 1 }, { remark: '' }],
  ] as const)('%s accepts a body without its optional fields and stores them empty', async (key, body, stored) => {
    const answer = await ctx().call(key, body, admin);
    expect(answer).toMatchObject({ code: 200, data: stored });
  });

  it('a device without room and remark, and an integration without address, key and remark', async () => {
    const device = await ctx().call('/hotel/device/creation', { name: '公共区域网关', sn: 'OPT-GW-0001', type: 'lock', state: 1 }, admin);
    expect(device).toMatchObject({ code: 200, data: { device: { remark: '' } } });
    const advanced = await ctx().call('/hotel/advanced/creation', { name: '只填名称的对接', appSecret: '', state: 1 }, admin);
    expect(advanced).toMatchObject({ code: 200, data: { endpointUrl: '', appKey: '', remark: '' } });
  });

  it('still refuses a wrong value of an optional field with its Chinese message, and a missing required one', async () => {
    const wrong = await ctx().call('/sys/role/creation', { name: '错误备注', state: 1, remark: 5 }, admin);
    expect(wrong.code).toBe(400);
    expect(wrong.msg).toContain('备注');
    const missing = await ctx().call('/sys/role/creation', { state: 1 }, admin);
    expect(missing).toMatchObject({ code: 400, msg: expect.stringContaining('角色名称') });
  });

  it('tells integrators which fields are required', () => {
    const required = (contract['/sys/user/creation'].body as { required?: string[] }).required;
    expect(required).toEqual(expect.arrayContaining(['userName', 'nickName', 'password', 'state']));
    expect(required).not.toContain('roleId');
    expect((contract['/sys/role/creation'].body as { required?: string[] }).required).not.toContain('remark');
  });
});
