/**
 * Location alarms (issue 27), on both databases: more than half (the default share) of a floor's
 * devices going offline within the hold-down window is one floor alarm (楼层断连) with their alarms
 * as its symptoms; fewer is an alarm each; a whole building is one building alarm, not one per
 * floor. Every raise has its clear: the floor back under the share clears it and a device still
 * silent gets its own alarm. A location alarm is in scope where its location's hotel is.
 */
import { describeOnEachDatabase } from './support/harness';
import { createRole, expectOk, menuGrants, setPresence, USER_PASSWORD } from './support/sys-fixtures';
import { createChannel, expandAll, notifySettings } from './support/notify-fixtures';
import { runTask } from '../../src/server/services/scheduler/tasks';
import { LOCATION_ALARMS, LOCATION_PROMOTED_MESSAGE } from '../../src/server/services/device-status/location-alarms';

const MINUTE = 60_000;

describeOnEachDatabase(
  'location alarms',
  (ctx) => {
    let admin: string;
    let hotelA: number;
    let hotelBCaller: string;
    let serial = 0;
    const db = () => ctx().database.db;

    beforeAll(async () => {
      admin = await ctx().login();
      const tree = expectOk(await ctx().call('GET /sys/org/tree', null, admin));
      const root = tree.find((unit) => unit.pid === null)!.id;
      const hotel = async (name: string, code: string) =>
        expectOk(await ctx().call('/sys/org/creation', { pid: root, name, kind: 'hotel', code, state: 1, sort: 0, remark: '' }, admin)).id;
      hotelA = await hotel('位置告警 A 店', 'LA-A');
      const hotelB = await hotel('位置告警 B 店', 'LA-B');
      const role = await createRole(ctx(), admin, '位置告警 B 店值班', await menuGrants(ctx(), '/hotel/alarm'));
      expectOk(await ctx().call('/sys/role/edit', { id: role.id, name: role.name, remark: '', state: 1, dataScope: 'org', scopeOrgIds: [], version: role.version }, admin));
      expectOk(await ctx().call('/sys/user/creation', { userName: 'location.b', nickName: 'B 店值班', password: USER_PASSWORD, state: 1, roleId: role.id, orgId: hotelB }, admin));
      hotelBCaller = await ctx().login('location.b', USER_PASSWORD);
    });
    // Each test sweeps only its own devices.
    beforeEach(async () => {
      await db().updateTable('hotelDevicePresence').set({ online: 0 }).execute();
    });

    const location = async (parentId: number, kind: 'building' | 'floor' | 'room', name: string) =>
      expectOk(await ctx().call('/hotel/location/creation', { parentId, kind, name, sort: 0, ...(kind === 'building' ? { orgId: hotelA } : {}) }, admin)).id;
    /** A floor of `count` devices, one per room, each with its key. */
    async function floorOf(buildingId: number, count: number) {
      serial += 1;
      const floorId = await location(buildingId, 'floor', `${serial}F`);
      const devices = [];
      for (let index = 1; index <= count; index += 1) {
        const roomId = await location(floorId, 'room', `${serial}${String(index).padStart(2, '0')}`);
        const sn = `LA-${serial}-${index}`;
        const { device, deviceKey } = expectOk(
          await ctx().call('/hotel/device/creation', { name: `门锁 ${sn}`, sn, type: 'lock', locationId: roomId, orgId: hotelA, state: 1, remark: '' }, admin),
        );
        devices.push({ id: device.id, sn, key: deviceKey });
      }
      return { floorId, devices };
    }
    const building = async () => {
      serial += 1;
      return location(0, 'building', `位置告警楼 ${serial}`);
    };
    /** The devices were last heard from 10 minutes before `now`, and the 5-minute sweep runs at `now`. */
    async function silentSince(ids: number[], now: number) {
      await setPresence(db(), ids, { online: 1, lastSeenAt: now - 10 * MINUTE });
      return runTask('device.offlineSweep', { minutes: 5 }, { app: ctx().app, now });
    }
    /**
     * A floor of `count` devices gone silent together at `now`, in a new building whose other floor
     * (`online` devices) stays online, so the building is under the share: a floor alarm.
     */
    async function silentFloor(count: number, online: number, now = Date.now()) {
      const buildingId = await building();
      const { floorId, devices } = await floorOf(buildingId, count);
      const { devices: others } = await floorOf(buildingId, online);
      await setPresence(
        db(),
        others.map((device) => device.id),
        { online: 1, lastSeenAt: Date.now() },
      );
      await silentSince(
        devices.map((device) => device.id),
        now,
      );
      return { buildingId, floorId, devices };
    }
    const activeAlarm = (deviceId: number) =>
      db().selectFrom('hotelAlarm').selectAll().where('deviceId', '=', deviceId).where('type', '=', 'offline').where('clearedAt', 'is', null).executeTakeFirst();
    const locationAlarm = (locationId: number) => db().selectFrom('hotelAlarm').selectAll().where('locationId', '=', locationId).orderBy('id', 'desc').executeTakeFirst();
    const locationName = async (id: number) => (await db().selectFrom('hotelLocation').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;
    const heartbeat = async (device: { sn: string; key: string }) => {
      const response = await ctx().app.inject({ method: 'POST', url: '/api/hotel/device/heartbeat', headers: { 'x-device-key': device.key }, payload: { sn: device.sn } });
      expect(response.json()).toMatchObject({ code: 200 });
    };

    it('a floor whose devices go offline together: one floor alarm with each device as its symptom, listed with its path', async () => {
      const now = Date.now();
      const { buildingId, floorId, devices } = await silentFloor(6, 7, now);

      const floor = (await locationAlarm(floorId))!;
      expect(floor).toMatchObject({ type: LOCATION_ALARMS.floor.type, causeId: null, clearedAt: null, startedAt: now });
      expect(await locationAlarm(buildingId)).toBeUndefined();
      for (const device of devices) expect(await activeAlarm(device.id)).toMatchObject({ causeId: floor.id });

      const list = expectOk(await ctx().call('/hotel/alarm/inquire', { current: 1, size: 50, params: { status: 'active' } }, admin));
      const row = list.records.find((record) => record.id === Number(floor.id))!;
      expect(row).toMatchObject({ locationId: floorId, symptomCount: 6, causeId: null });
      expect(row.locationPath).toMatch(/^位置告警楼 \d+ \/ \d+F$/);
      expect(list.records.some((record) => devices.some((device) => device.id === record.deviceId && record.type === 'offline'))).toBe(false);
      const symptoms = expectOk(await ctx().call('/hotel/alarm/inquire', { current: 1, size: 50, params: { causeId: Number(floor.id) } }, admin));
      expect(symptoms.records.map((record) => record.deviceId).sort((a, b) => a - b)).toEqual(devices.map((device) => device.id));
    });

    it("deleting the device a floor alarm is filed under ends that device's own alarm, not the floor's", async () => {
      const { floorId, devices } = await silentFloor(6, 7);
      const floor = (await locationAlarm(floorId))!;
      const standIn = devices.find((device) => device.id === floor.deviceId)!;
      expectOk(await ctx().call('/hotel/device/removal', { id: standIn.id }, admin));

      expect(await locationAlarm(floorId)).toMatchObject({ id: floor.id, clearedAt: null });
      expect(await activeAlarm(standIn.id)).toBeUndefined();
      for (const device of devices.filter((candidate) => candidate !== standIn)) expect(await activeAlarm(device.id)).toMatchObject({ causeId: floor.id });
    });

    it('a few devices of a floor offline (under the share): an alarm each, no floor alarm', async () => {
      const buildingId = await building();
      const { floorId, devices } = await floorOf(buildingId, 6);
      const [first, second, third, ...rest] = devices;
      await setPresence(
        db(),
        rest.map((device) => device.id),
        { online: 1, lastSeenAt: Date.now() },
      );
      await silentSince([first.id, second.id, third.id], Date.now());
      expect(await locationAlarm(floorId)).toBeUndefined();
      for (const device of [first, second, third]) expect(await activeAlarm(device.id)).toMatchObject({ causeId: null });
    });

    it('a floor of fewer devices than the minimum never makes a floor alarm', async () => {
      const buildingId = await building();
      const { floorId, devices } = await floorOf(buildingId, 2);
      await silentSince(
        devices.map((device) => device.id),
        Date.now(),
      );
      expect(await locationAlarm(floorId)).toBeUndefined();
      expect(await locationAlarm(buildingId)).toBeUndefined();
      for (const device of devices) expect(await activeAlarm(device.id)).toMatchObject({ causeId: null });
    });

    it('devices gone within the hold-down window count together: the later sweep folds the earlier alarms under the floor', async () => {
      const buildingId = await building();
      const { floorId, devices } = await floorOf(buildingId, 6);
      const { devices: others } = await floorOf(buildingId, 7);
      await setPresence(
        db(),
        others.map((device) => device.id),
        { online: 1, lastSeenAt: Date.now() },
      );
      const [a, b, ...later] = devices;
      const first = Date.now() - 30_000;
      await setPresence(db(), [...later.map((device) => device.id)], { online: 1, lastSeenAt: first });
      await silentSince([a.id, b.id], first);
      expect(await locationAlarm(floorId)).toBeUndefined();
      await silentSince(
        later.map((device) => device.id),
        first + 30_000,
      );
      const floor = (await locationAlarm(floorId))!;
      expect(floor).toMatchObject({ type: LOCATION_ALARMS.floor.type, causeId: null });
      for (const device of devices) expect(await activeAlarm(device.id)).toMatchObject({ causeId: floor.id });
    });

    it('the floor back under the share clears its alarm; a device still silent gets its own alarm', async () => {
      const { floorId, devices } = await silentFloor(5, 6);
      const floor = (await locationAlarm(floorId))!;
      expect(floor.clearedAt).toBeNull();
      const [silent, ...back] = devices;
      // Two of five back: three silent, still over half.
      await heartbeat(back[0]);
      await heartbeat(back[1]);
      expect((await locationAlarm(floorId))!.clearedAt).toBeNull();
      // Four of five back: under the share.
      await heartbeat(back[2]);
      await heartbeat(back[3]);
      expect(await locationAlarm(floorId)).toMatchObject({ id: floor.id, clearedBy: '系统', clearedAt: expect.any(Number) as number });
      expect(await activeAlarm(silent.id)).toMatchObject({ causeId: null, message: LOCATION_PROMOTED_MESSAGE });
      for (const device of back) expect(await activeAlarm(device.id)).toBeUndefined();
    });

    it('the operation log names a floor alarm 楼层断连 with its representative device, in the system’s records and staff’s alike; the system’s say which floor', async () => {
      const { buildingId, floorId, devices } = await silentFloor(5, 6);
      const floor = (await locationAlarm(floorId))!;
      expectOk(await ctx().call('/hotel/alarm/acknowledge', { ids: [Number(floor.id)], note: '' }, admin));
      for (const device of devices) await heartbeat(device);
      expect((await locationAlarm(floorId))!.clearedAt).not.toBeNull();

      const records = await db()
        .selectFrom('sysOperationLog')
        .select(['action', 'targetLabel', 'msg'])
        .where('targetType', '=', 'alarm')
        .where('targetId', '=', String(floor.id))
        .orderBy('id')
        .execute();
      const [first] = devices;
      const label = `楼层断连：门锁 ${first.sn}（${first.sn}）`;
      const path = `${await locationName(buildingId)} / ${await locationName(floorId)}`;
      expect(records.map(({ action, targetLabel }) => ({ action, targetLabel }))).toEqual([
        { action: '告警产生', targetLabel: label },
        { action: '确认告警', targetLabel: label },
        { action: '告警清除', targetLabel: label },
      ]);
      expect([records[0].msg, records[2].msg]).toEqual([`楼层断连：${path}，大部分设备同时离线，产生告警`, `楼层断连：${path}，设备恢复在线，告警自动清除`]);
    });

    it('a whole building: one building alarm, not one per floor', async () => {
      const buildingId = await building();
      // Each floor is over the share on its own too: the building takes them.
      const first = await floorOf(buildingId, 5);
      const second = await floorOf(buildingId, 5);
      const devices = [...first.devices, ...second.devices];
      await silentSince(
        devices.map((device) => device.id),
        Date.now(),
      );
      const alarm = (await locationAlarm(buildingId))!;
      expect(alarm).toMatchObject({ type: LOCATION_ALARMS.building.type, causeId: null, clearedAt: null });
      expect(await locationAlarm(first.floorId)).toBeUndefined();
      expect(await locationAlarm(second.floorId)).toBeUndefined();
      for (const device of devices) expect(await activeAlarm(device.id)).toMatchObject({ causeId: alarm.id });
      const row = expectOk(await ctx().call('/hotel/alarm/inquire', { current: 1, size: 50, params: { status: 'active' } }, admin)).records.find(
        (record) => record.id === Number(alarm.id),
      );
      expect(row).toMatchObject({ locationId: buildingId, locationPath: expect.stringMatching(/^位置告警楼 \d+$/) as string, symptomCount: 10 });
      const raised = await db().selectFrom('sysOperationLog').select('msg').where('targetType', '=', 'alarm').where('targetId', '=', String(alarm.id)).execute();
      expect(raised).toEqual([{ msg: `楼栋断连：${await locationName(buildingId)}，大部分设备同时离线，产生告警` }]);
    });

    it("devices behind a gateway that is down are its symptoms, not their floor's", async () => {
      const buildingId = await building();
      const { floorId, devices } = await floorOf(buildingId, 5);
      const { device: gateway } = expectOk(
        await ctx().call(
          '/hotel/device/creation',
          { name: `网关 ${serial}`, sn: `LA-GW-${serial}`, type: 'gateway', locationId: floorId, orgId: hotelA, state: 1, remark: '' },
          admin,
        ),
      );
      for (const device of devices) {
        const current = expectOk(await ctx().call('/hotel/device/inquire', { current: 1, size: 1, params: { sn: device.sn } }, admin)).records[0];
        expect(current).toMatchObject({ id: device.id, sn: device.sn });
        expectOk(
          await ctx().call(
            '/hotel/device/edit',
            {
              id: device.id,
              name: current.name,
              sn: device.sn,
              type: 'lock',
              locationId: current.locationId,
              orgId: hotelA,
              state: 1,
              remark: '',
              gatewayId: gateway.id,
              version: current.version,
            },
            admin,
          ),
        );
      }
      await silentSince([gateway.id, ...devices.map((device) => device.id)], Date.now());
      expect(await locationAlarm(floorId)).toBeUndefined();
      expect(await locationAlarm(buildingId)).toBeUndefined();
      const cause = (await activeAlarm(gateway.id))!;
      expect(cause).toMatchObject({ causeId: null });
      for (const device of devices) expect(await activeAlarm(device.id)).toMatchObject({ causeId: cause.id });
    });

    it('a caller scoped to another hotel does not see the floor alarm, nor can act on it', async () => {
      const buildingId = await building();
      const { floorId, devices } = await floorOf(buildingId, 5);
      await floorOf(buildingId, 6);
      await silentSince(
        devices.map((device) => device.id),
        Date.now(),
      );
      const floor = (await locationAlarm(floorId))!;
      const seen = expectOk(await ctx().call('/hotel/alarm/inquire', { current: 1, size: 100, params: { status: 'active' } }, hotelBCaller));
      expect(seen.records.some((record) => record.id === Number(floor.id) || record.locationId === floorId)).toBe(false);
      expect(await ctx().call('/hotel/alarm/acknowledge', { ids: [Number(floor.id)], note: '' }, hotelBCaller)).toMatchObject({ code: 404 });
      expect(
        expectOk(await ctx().call('/hotel/alarm/inquire', { current: 1, size: 100, params: { status: 'active' } }, admin)).records.some((record) => record.id === Number(floor.id)),
      ).toBe(true);
    });

    it('a rule for the building, causes only, is told of the floor alarm once, naming the floor', async () => {
      const buildingId = await building();
      const channel = await createChannel(ctx(), admin, { name: `位置-${ctx().database.dialect}`, type: 'webhook', config: { url: 'http://127.0.0.1:9/location' } });
      expectOk(
        await ctx().call(
          '/monitor/rule/creation',
          {
            name: `楼栋规则-${ctx().database.dialect}`,
            state: 1,
            alarmTypes: [],
            minSeverity: 'warning',
            orgId: null,
            locationId: buildingId,
            symptoms: 0,
            channelIds: [channel.id],
            quietStart: null,
            quietEnd: null,
            escalation: [],
            remark: '',
          },
          admin,
        ),
      );
      const { floorId, devices } = await floorOf(buildingId, 5);
      await floorOf(buildingId, 6);
      await silentSince(
        devices.map((device) => device.id),
        Date.now(),
      );
      const floor = (await locationAlarm(floorId))!;
      // The worker turns the alarms' events into messages.
      await expandAll(ctx());
      const told = await db().selectFrom('notifyMessage').select(['alarmId', 'body']).where('channelId', '=', channel.id).where('kind', '=', 'raise').execute();
      expect(told.map((message) => Number(message.alarmId))).toEqual([Number(floor.id)]);
      // Its location is the floor (主楼 / 8F), not the representative device's room under it.
      const names = await db().selectFrom('hotelLocation').select(['id', 'name']).where('id', 'in', [buildingId, floorId]).execute();
      const name = (id: number) => names.find((row) => row.id === id)!.name;
      expect(told[0].body).toContain(`${name(buildingId)} / ${name(floorId)}`);
      expect(told[0].body).not.toContain(`${name(buildingId)} / ${name(floorId)} /`);
      expect(told[0].body).toContain('楼层断连');
    });
  },
  notifySettings(),
);
