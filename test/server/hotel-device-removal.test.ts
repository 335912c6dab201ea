/**
 * Deleting a device registered by mistake (issue 25): it leaves every list, count and lookup and
 * its key stops working at once, while its status history, its alarms and its operation-log
 * records stay readable, the deletion's record holding the device as it was.
 */
import { describeOnEachDatabase, type TestApp } from './support/harness';
import { expectOk, menuGrants, resourceId, signedInOperator } from './support/sys-fixtures';

const device = (sn: string) => ({ name: `误登记 ${sn}`, sn, type: 'lock', state: 1, remark: '误登记的设备' });

async function heartbeat(app: TestApp, sn: string, key: string) {
  return (await app.app.inject({ method: 'POST', url: '/api/hotel/device/heartbeat', headers: { 'x-device-key': key }, payload: { sn } })).json<{ code: number }>();
}

describeOnEachDatabase('hotel/device removal', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });
  const db = () => ctx().database.db;

  it('hides the device and refuses its key at once, keeping its history, alarms and audit trail', async () => {
    const { device: d, deviceKey } = expectOk(await ctx().call('/hotel/device/creation', device('DEL-0001'), admin));
    expect(await heartbeat(ctx(), 'DEL-0001', deviceKey)).toMatchObject({ code: 200 });
    const now = Date.now();
    await db()
      .insertInto('hotelAlarm')
      .values({
        deviceId: d.id,
        type: 'offline',
        severity: 'major',
        message: '设备心跳超时，已离线',
        startedAt: now,
        lastAt: now,
        acknowledgedBy: null,
        acknowledgedAt: null,
        clearedBy: null,
        clearedAt: null,
      })
      .execute();
    const transitionsBefore = await db().selectFrom('hotelDeviceTransition').selectAll().where('deviceId', '=', d.id).execute();
    expect(transitionsBefore.length).toBeGreaterThan(0);

    expect(await ctx().call('/hotel/device/removal', { id: d.id }, admin)).toEqual({ code: 200, msg: '设备已删除，其状态记录、告警和操作日志仍可查阅', data: null });

    // Gone from the list, the edit and the key reset; its key and heartbeats refused.
    expect(expectOk(await ctx().call('/hotel/device/inquire', { size: 20, current: 1, params: { sn: 'DEL-0001' } }, admin)).total).toBe(0);
    expect(await ctx().call('/hotel/device/key/reset', { id: d.id }, admin)).toEqual({ code: 404, msg: '设备不存在', data: null });
    expect(await ctx().call('/hotel/device/removal', { id: d.id }, admin)).toEqual({ code: 404, msg: '设备不存在', data: null });
    expect(await heartbeat(ctx(), 'DEL-0001', deviceKey)).toMatchObject({ code: 401 });
    // Its serial number stays its own, for the history that names it.
    expect(await ctx().call('/hotel/device/creation', device('DEL-0001'), admin)).toMatchObject({ code: 409 });

    // History: the transitions stay, the alarm is still listed under the device's name, cleared by the operator.
    expect(await db().selectFrom('hotelDeviceTransition').selectAll().where('deviceId', '=', d.id).execute()).toEqual(transitionsBefore);
    const alarms = expectOk(await ctx().call('/hotel/alarm/inquire', { size: 20, current: 1, params: { device: 'DEL-0001' } }, admin)).records;
    expect(alarms).toMatchObject([{ deviceId: d.id, deviceName: '误登记 DEL-0001', deviceSn: 'DEL-0001', clearedBy: 'admin' }]);
    const trail = expectOk(await ctx().call('/monitor/operation/inquire', { size: 20, current: 1, params: { targetType: 'device', targetId: String(d.id) } }, admin)).records;
    expect(trail.map((r) => r.action)).toEqual(expect.arrayContaining(['删除设备', '新增设备']));

    // The deletion's record holds the device as it was.
    const record = await db()
      .selectFrom('sysOperationLog')
      .select(['targetLabel', 'outcome', 'changes'])
      .where('path', '=', '/hotel/device/removal')
      .where('targetId', '=', String(d.id))
      .where('outcome', '=', 'success')
      .executeTakeFirstOrThrow();
    expect(record.targetLabel).toBe('误登记 DEL-0001（DEL-0001）');
    expect(JSON.parse(record.changes)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'sn', before: 'DEL-0001', after: null }),
        expect.objectContaining({ field: 'remark', before: '误登记的设备', after: null }),
      ]),
    );
  });

  it('refuses to delete a gateway that still carries devices, changing nothing; once they are gone it goes', async () => {
    const { device: gateway, deviceKey } = expectOk(await ctx().call('/hotel/device/creation', { ...device('DEL-GW01'), type: 'gateway' }, admin));
    const { device: child } = expectOk(await ctx().call('/hotel/device/creation', { ...device('DEL-GW01-C'), gatewayId: gateway.id }, admin));
    const before = await db().selectFrom('hotelDevice').selectAll().where('id', '=', gateway.id).executeTakeFirstOrThrow();

    expect(await ctx().call('/hotel/device/removal', { id: gateway.id }, admin)).toEqual({ code: 409, msg: '该网关下仍有设备，请先删除这些设备或改挂到其他网关', data: null });
    expect(await db().selectFrom('hotelDevice').selectAll().where('id', '=', gateway.id).executeTakeFirstOrThrow()).toEqual(before);
    expect(await heartbeat(ctx(), 'DEL-GW01', deviceKey)).toMatchObject({ code: 200 });

    expectOk(await ctx().call('/hotel/device/removal', { id: child.id }, admin));
    expect(await ctx().call('/hotel/device/removal', { id: gateway.id }, admin)).toMatchObject({ code: 200 });
  });

  it('leaves a deleted device out of the 控制台 counts', async () => {
    const { device: d } = expectOk(await ctx().call('/hotel/device/creation', device('DEL-PANEL'), admin));
    const before = expectOk(await ctx().call('/sys/panel/inquire', {}, admin));
    expectOk(await ctx().call('/hotel/device/removal', { id: d.id }, admin));
    const after = expectOk(await ctx().call('/sys/panel/inquire', {}, admin));
    expect(after.devices).toBe(before.devices - 1);
    expect(after.devicesOffline).toBe(before.devicesOffline - 1);
  });

  it("leaves a deleted device's key hash as it was when its key reset is refused", async () => {
    const { device: d } = expectOk(await ctx().call('/hotel/device/creation', device('DEL-KEY1'), admin));
    expectOk(await ctx().call('/hotel/device/removal', { id: d.id }, admin));
    const before = await db().selectFrom('hotelDevice').select(['keyHash', 'updatedAt']).where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(await ctx().call('/hotel/device/key/reset', { id: d.id }, admin)).toEqual({ code: 404, msg: '设备不存在', data: null });
    expect(await db().selectFrom('hotelDevice').select(['keyHash', 'updatedAt']).where('id', '=', d.id).executeTakeFirstOrThrow()).toEqual(before);
  });

  it('needs the 删除设备 resource', async () => {
    const { device: d } = expectOk(await ctx().call('/hotel/device/creation', device('DEL-0002'), admin));
    const removal = await resourceId(ctx(), '/hotel/device/removal');
    const withoutRemoval = (await menuGrants(ctx(), '/hotel/device')).filter((g) => !(g.type === 'resource' && g.resource === removal));
    const { token } = await signedInOperator(ctx(), admin, 'no_device_removal', withoutRemoval);
    expect(await ctx().call('/hotel/device/removal', { id: d.id }, token)).toEqual({ code: 403, msg: '没有权限执行该操作', data: null });
    expect(expectOk(await ctx().call('/hotel/device/inquire', { size: 20, current: 1, params: { sn: 'DEL-0002' } }, admin)).total).toBe(1);
  });
});
