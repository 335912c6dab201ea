/**
 * Gateways (issue 27): a device of type 网关 carries its children's heartbeats. The HTTP batch and
 * the MQTT gateway topics (against the real broker, MQTT_URL) on both databases: a child's
 * heartbeat through its gateway counts as the child's, only the gateway's own enabled children are
 * taken, a wrong key is ignored and logged at warn, disconnect takes children offline at once.
 */
import crypto from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { describeOnEachDatabase, type TestApp } from './support/harness';
import { expectOk } from './support/sys-fixtures';
import { captureLog } from './support/log-capture';
import { deviceWithPresence } from '../../src/server/routes/hotel/device/presence';
import { SYSTEM_SCOPE } from '../../src/server/lib/data-scope';

const MQTT_URL = process.env.MQTT_URL;

async function waitFor(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const deviceBody = (sn: string, type: string, gatewayId: number | null = null, state = 1) => ({ name: `设备 ${sn}`, sn, type, state, remark: '', gatewayId });
const presence = async (app: TestApp, id: number) => (await deviceWithPresence(app.database.db, SYSTEM_SCOPE, id))!;

/** A gateway with `count` children (and one disabled child), all created by `admin`. */
async function gatewayWithChildren(app: TestApp, admin: string, tag: string, count: number) {
  const { device: gateway, deviceKey } = expectOk(await app.call('/hotel/device/creation', deviceBody(`GW-${tag}`, 'gateway'), admin));
  const children = [];
  for (let index = 1; index <= count; index += 1) {
    children.push(expectOk(await app.call('/hotel/device/creation', deviceBody(`GW-${tag}-C${index}`, 'lock', gateway.id), admin)).device);
  }
  const disabled = expectOk(await app.call('/hotel/device/creation', deviceBody(`GW-${tag}-OFF`, 'lock', gateway.id, 0), admin)).device;
  return { gateway, key: deviceKey, children, disabled };
}

describeOnEachDatabase('hotel/device gateways', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });
  const batch = (sn: string, key: string, devices: string[]) =>
    ctx().app.inject({ method: 'POST', url: '/api/hotel/device/gateway/heartbeat', headers: { 'x-device-key': key }, payload: { sn, devices } });

  it('a device names its gateway: of type 网关, one level, same hotel; the list answers gatewayId', async () => {
    const { device: gateway } = expectOk(await ctx().call('/hotel/device/creation', deviceBody('GWV-0001', 'gateway'), admin));
    const { device: lock } = expectOk(await ctx().call('/hotel/device/creation', deviceBody('GWV-LOCK', 'lock'), admin));
    const { device: child } = expectOk(await ctx().call('/hotel/device/creation', deviceBody('GWV-CHLD', 'lock', gateway.id), admin));
    expect(child.gatewayId).toBe(gateway.id);
    expect(await ctx().call('/hotel/device/creation', deviceBody('GWV-BAD1', 'lock', lock.id), admin)).toEqual({ code: 400, msg: '所属网关必须是类型为“网关”的设备', data: null });
    expect(await ctx().call('/hotel/device/creation', deviceBody('GWV-BAD2', 'lock', 999_999), admin)).toEqual({ code: 404, msg: '所属网关不存在', data: null });
    const edit = (body: ReturnType<typeof deviceBody>, id: number, version: number) =>
      ctx().call('/hotel/device/edit', { ...body, id, version, orgId: null, locationId: null }, admin);
    expect(await edit(deviceBody('GWV-0001', 'gateway', gateway.id), gateway.id, gateway.version)).toEqual({ code: 400, msg: '设备不能以自己为网关', data: null });
    const { device: second } = expectOk(await ctx().call('/hotel/device/creation', deviceBody('GWV-0002', 'gateway'), admin));
    expect(await edit(deviceBody('GWV-0001', 'gateway', second.id), gateway.id, gateway.version)).toEqual({
      code: 400,
      msg: '该设备是其他设备的网关，不能再挂到网关下',
      data: null,
    });
    const page = expectOk(await ctx().call('/hotel/device/inquire', { current: 1, size: 10, params: { sn: 'GWV-CHLD' } }, admin));
    expect(page.records[0]).toMatchObject({ sn: 'GWV-CHLD', gatewayId: gateway.id });
    // The screens' edit leaves gatewayId out: the device keeps its gateway; null detaches it.
    const { gatewayId: _left, ...withoutGateway } = deviceBody('GWV-CHLD', 'lock');
    const renamed = expectOk(
      await ctx().call('/hotel/device/edit', { ...withoutGateway, name: '改名的子设备', id: child.id, version: child.version, orgId: null, locationId: null }, admin),
    );
    expect(renamed).toMatchObject({ name: '改名的子设备', gatewayId: gateway.id });
    expect(expectOk(await edit(deviceBody('GWV-CHLD', 'lock', null), child.id, renamed.version)).gatewayId).toBeNull();
  });

  it('the HTTP batch counts as the gateway’s heartbeat and each named child’s; others are ignored, not refused', async () => {
    const tag = ctx().database.dialect === 'postgres' ? 'HP' : 'HS';
    const { gateway, key, children, disabled } = await gatewayWithChildren(ctx(), admin, tag, 3);
    const { device: stranger } = expectOk(await ctx().call('/hotel/device/creation', deviceBody(`GW-${tag}-X`, 'lock'), admin));
    const response = await batch(gateway.sn, key, [children[0].sn, children[1].sn, disabled.sn, stranger.sn, 'NO-SUCH-SN']);
    expect(response.json()).toMatchObject({ code: 200, msg: '心跳已接收', data: { accepted: 2, ignored: 3, serverTime: expect.any(Number) as number } });
    expect((await presence(ctx(), gateway.id)).online).toBe(1);
    expect((await presence(ctx(), children[0].id)).online).toBe(1);
    expect((await presence(ctx(), children[1].id)).online).toBe(1);
    expect((await presence(ctx(), children[2].id)).online).toBe(0);
    expect((await presence(ctx(), disabled.id)).online).toBe(0);
    expect((await presence(ctx(), stranger.id)).online).toBe(0);
    // A child's heartbeat through its gateway is the child's: its history says heartbeat, like its own.
    const history = await ctx().database.db.selectFrom('hotelDeviceTransition').select(['online', 'cause']).where('deviceId', '=', children[0].id).execute();
    expect(history).toEqual([{ online: 1, cause: 'heartbeat' }]);
  });

  it('the HTTP batch refuses a wrong key (401, nothing written) and a device that is not a gateway (400)', async () => {
    const tag = ctx().database.dialect === 'postgres' ? 'KP' : 'KS';
    const { gateway, key, children } = await gatewayWithChildren(ctx(), admin, tag, 1);
    const wrong = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    expect((await batch(gateway.sn, wrong, [children[0].sn])).json()).toEqual({ code: 401, msg: '设备认证失败', data: null });
    expect((await presence(ctx(), children[0].id)).online).toBe(0);
    expect((await presence(ctx(), gateway.id)).online).toBe(0);
    const { device: lock, deviceKey } = expectOk(await ctx().call('/hotel/device/creation', deviceBody(`GW-${tag}-L`, 'lock'), admin));
    expect((await batch(lock.sn, deviceKey, [])).json()).toEqual({ code: 400, msg: '该设备不是网关', data: null });
  });
});

if (!MQTT_URL) {
  if (process.env.CI) {
    it('runs the MQTT gateway suite in CI', () => {
      throw new Error('MQTT_URL is not set: in CI the MQTT suite must run against the broker (mqtt://127.0.0.1:1883)');
    });
  } else {
    console.warn('MQTT gateway tests skipped: MQTT_URL is not set');
    it.skip('MQTT gateway suite (needs MQTT_URL)', () => undefined);
  }
} else {
  const prefix = `test-${crypto.randomBytes(6).toString('hex')}`;
  const { lines, stream } = captureLog();
  describeOnEachDatabase(
    'hotel/device gateways over MQTT',
    (ctx) => {
      let admin: string;
      let client: MqttClient;
      let tag: string;
      beforeAll(async () => {
        admin = await ctx().login();
        await ctx().app.mqtt!.whenSubscribed();
        client = await mqtt.connectAsync(MQTT_URL, { clientId: `test-gateway-${crypto.randomBytes(4).toString('hex')}`, reconnectPeriod: 0 });
        tag = ctx().database.dialect === 'postgres' ? 'P' : 'S';
      }, 15_000);
      afterAll(async () => {
        await client?.endAsync();
      });
      const publish = (sn: string, kind: string, payload: unknown) =>
        client.publishAsync(`${prefix}/gateway/${sn}/${kind}`, typeof payload === 'string' ? payload : JSON.stringify(payload), { qos: 1 });

      it('connect and heartbeat batches bring the named children online; disconnect takes them offline at once', async () => {
        const { gateway, key, children } = await gatewayWithChildren(ctx(), admin, `MC${tag}`, 3);
        await publish(gateway.sn, 'connect', { key, devices: children.map((child) => child.sn) });
        await waitFor(async () => (await Promise.all(children.map(async (child) => (await presence(ctx(), child.id)).online))).every((online) => online === 1));
        // The gateway's own heartbeat is taken after its children's.
        await waitFor(async () => (await presence(ctx(), gateway.id)).online === 1);

        await publish(gateway.sn, 'disconnect', { key, devices: [children[2].sn] });
        await waitFor(async () => (await presence(ctx(), children[2].id)).online === 0);
        // Its gateway is alive: the child gets its own alarm (a cause), recorded as disconnected.
        const alarm = await ctx().database.db.selectFrom('hotelAlarm').selectAll().where('deviceId', '=', children[2].id).executeTakeFirstOrThrow();
        expect(alarm).toMatchObject({ type: 'offline', causeId: null, clearedAt: null });
        const history = await ctx().database.db.selectFrom('hotelDeviceTransition').select(['online', 'cause']).where('deviceId', '=', children[2].id).orderBy('id').execute();
        expect(history).toEqual([
          { online: 1, cause: 'heartbeat' },
          { online: 0, cause: 'disconnect' },
        ]);

        await publish(gateway.sn, 'heartbeat', { key, devices: [children[2].sn] });
        await waitFor(async () => (await presence(ctx(), children[2].id)).online === 1);
        expect((await ctx().database.db.selectFrom('hotelAlarm').select('clearedBy').where('id', '=', alarm.id).executeTakeFirstOrThrow()).clearedBy).toBe('系统');
      });

      it('ignores a wrong key, a device that is not a gateway and a malformed batch: logged at warn without the key', async () => {
        const { gateway, key, children } = await gatewayWithChildren(ctx(), admin, `MW${tag}`, 1);
        const { device: lock, deviceKey } = expectOk(await ctx().call('/hotel/device/creation', deviceBody(`MW${tag}-LOCK`, 'lock'), admin));
        const wrong = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
        const before = lines.length;
        await publish(gateway.sn, 'heartbeat', { key: wrong, devices: [children[0].sn] });
        await publish(lock.sn, 'heartbeat', { key: deviceKey, devices: [] });
        await publish(gateway.sn, 'heartbeat', { key, devices: 'not a list' });
        await publish(gateway.sn, 'reboot', { key, devices: [] });
        await waitFor(() => lines.slice(before).filter((line) => line.includes('mqtt gateway message ignored')).length === 4);
        const logged = lines.slice(before).filter((line) => line.includes('mqtt gateway message ignored'));
        expect(logged.find((line) => line.includes(`"sn":"${gateway.sn}"`))).toContain('"reason":"unauthenticated"');
        expect(logged.find((line) => line.includes(`"sn":"${lock.sn}"`))).toContain('"reason":"notGateway"');
        expect(logged.filter((line) => line.includes('"reason":"malformed"'))).toHaveLength(2);
        for (const line of logged) {
          expect(line).toContain('"level":40');
          expect(line).not.toContain(wrong);
          expect(line).not.toContain(key);
        }
        expect((await presence(ctx(), children[0].id)).online).toBe(0);
        expect((await presence(ctx(), gateway.id)).online).toBe(0);
      });

      it('takes only its own children: another gateway’s child named in a batch is ignored and logged', async () => {
        const first = await gatewayWithChildren(ctx(), admin, `MO${tag}`, 1);
        const second = await gatewayWithChildren(ctx(), admin, `MT${tag}`, 1);
        const before = lines.length;
        await publish(first.gateway.sn, 'heartbeat', { key: first.key, devices: [first.children[0].sn, second.children[0].sn] });
        await waitFor(async () => (await presence(ctx(), first.children[0].id)).online === 1);
        await waitFor(() => lines.slice(before).some((line) => line.includes('not its enabled children') && line.includes('"ignored":1')));
        expect((await presence(ctx(), second.children[0].id)).online).toBe(0);
      });
    },
    { mqtt: { url: MQTT_URL, topicPrefix: prefix, commandTimeoutMs: 60_000 } },
    { logger: { level: 'info', stream } },
  );
}
