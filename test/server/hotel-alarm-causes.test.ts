/**
 * Causes and symptoms (issue 27), on both databases: a gateway that goes offline raises one alarm;
 * its children become unreachable (不可达) in their status history and raise no alarm of their own,
 * their alarms folded under the gateway's as symptoms (not counted, not told to causes-only rules).
 * Every raise has its clear: the gateway back clears its alarm, and a child still silent then gets
 * an alarm of its own.
 */
import { describeOnEachDatabase, type TestApp } from './support/harness';
import { deviceRow, expectOk, setPresence } from './support/sys-fixtures';
import { createChannel, expandAll, notifySettings } from './support/notify-fixtures';
import { runTask } from '../../src/server/services/scheduler/tasks';
import { GATEWAY_LANES, sweepOffline, sweepPacing } from '../../src/server/services/device-status/offline-sweep';
import { overlapPacing, scriptedPacing } from './support/sweep-pacing';
import { PROMOTED_MESSAGE, UNREACHABLE, UNREACHABLE_MESSAGE } from '../../src/server/services/device-status/transitions';
import { AUDIT_ITEMIZED } from '../../src/server/services/device-status/records';

const MINUTE = 60_000;
const deviceBody = (sn: string, type: string, gatewayId: number | null = null) => ({ name: `设备 ${sn}`, sn, type, state: 1, remark: '', gatewayId });

describeOnEachDatabase(
  'alarm causes and symptoms',
  (ctx) => {
    let admin: string;
    let serial = 0;
    beforeAll(async () => {
      admin = await ctx().login();
    });
    // Each test sweeps only its own devices, and starts without the rules of earlier tests.
    beforeEach(async () => {
      await db().updateTable('hotelDevicePresence').set({ online: 0 }).execute();
      await db().updateTable('notifyRule').set({ state: 0 }).execute();
    });
    const db = () => ctx().database.db;

    async function gatewayWithChildren(app: TestApp, count: number) {
      serial += 1;
      const { device: gateway, deviceKey } = expectOk(await app.call('/hotel/device/creation', deviceBody(`CS-GW-${serial}`, 'gateway'), admin));
      const children = [];
      for (let index = 1; index <= count; index += 1) {
        children.push(expectOk(await app.call('/hotel/device/creation', deviceBody(`CS-${serial}-C${index}`, 'lock', gateway.id), admin)).device);
      }
      return { gateway, key: deviceKey, children };
    }
    /** The devices were last heard from 10 minutes before `now`, and the 5-minute sweep runs at `now`. */
    async function silentSince(ids: number[], now: number) {
      await setPresence(db(), ids, { online: 1, lastSeenAt: now - 10 * MINUTE });
      return runTask('device.offlineSweep', { minutes: 5 }, { app: ctx().app, now });
    }
    const activeAlarm = (deviceId: number) => db().selectFrom('hotelAlarm').selectAll().where('deviceId', '=', deviceId).where('clearedAt', 'is', null).executeTakeFirst();
    const history = (deviceId: number) => db().selectFrom('hotelDeviceTransition').select(['online', 'cause']).where('deviceId', '=', deviceId).orderBy('id').execute();
    const listCauses = async (sn: string) => expectOk(await ctx().call('/hotel/alarm/inquire', { current: 1, size: 20, params: { status: 'active', device: sn } }, admin));

    it('a gateway offline: one alarm, its children unreachable symptoms folded under it and left out of the counts', async () => {
      const { gateway, children } = await gatewayWithChildren(ctx(), 3);
      const panelBefore = expectOk(await ctx().call('/sys/panel/inquire', null, admin)).alarmsActive;
      const now = Date.now();
      // The children fell silent a minute before their gateway, so the sweep's own order (by last
      // seen) would reach them first: it takes gateways first.
      await setPresence(db(), [gateway.id], { online: 1, lastSeenAt: now - 10 * MINUTE });
      await setPresence(
        db(),
        children.map((child) => child.id),
        { online: 1, lastSeenAt: now - 11 * MINUTE },
      );
      await runTask('device.offlineSweep', { minutes: 5 }, { app: ctx().app, now });

      const cause = (await activeAlarm(gateway.id))!;
      expect(cause).toMatchObject({ type: 'offline', causeId: null, startedAt: now });
      for (const child of children) {
        expect(await activeAlarm(child.id)).toMatchObject({ causeId: cause.id, message: UNREACHABLE_MESSAGE });
        expect(await history(child.id)).toEqual([{ online: 0, cause: UNREACHABLE }]);
      }
      expect(await history(gateway.id)).toEqual([{ online: 0, cause: 'sweep' }]);

      // The list answers the cause with its symptoms counted, and lists them on asking.
      const causes = await listCauses('CS-');
      expect(causes.records.filter((record) => record.deviceId === gateway.id)).toMatchObject([{ id: cause.id, causeId: null, symptomCount: 3 }]);
      expect(causes.records.some((record) => children.some((child) => child.id === record.deviceId))).toBe(false);
      const symptoms = expectOk(await ctx().call('/hotel/alarm/inquire', { current: 1, size: 20, params: { causeId: cause.id } }, admin));
      expect(symptoms.total).toBe(3);
      expect(symptoms.records.map((record) => record.deviceId).sort((a, b) => a - b)).toEqual(children.map((child) => child.id));
      expect(symptoms.records.every((record) => record.causeId === cause.id && record.symptomCount === 0)).toBe(true);
      // The 告警 card counts causes only: one more, not four.
      expect(expectOk(await ctx().call('/sys/panel/inquire', null, admin)).alarmsActive).toBe(panelBefore + 1);
    });

    it('the gateway back clears its alarm; a child still silent then gets its own alarm, announced as raised', async () => {
      const { gateway, key, children } = await gatewayWithChildren(ctx(), 2);
      const [heard, silent] = children as [(typeof children)[0], (typeof children)[0]];
      await silentSince([gateway.id, heard.id, silent.id], Date.now() - MINUTE);
      const cause = (await activeAlarm(gateway.id))!;
      const outboxBefore =
        (
          await db()
            .selectFrom('eventOutbox')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirst()
        )?.id ?? 0;

      // The gateway reports again, naming one child: that child is back, the other stays silent.
      const response = await ctx().app.inject({
        method: 'POST',
        url: '/api/hotel/device/gateway/heartbeat',
        headers: { 'x-device-key': key },
        payload: { sn: gateway.sn, devices: [heard.sn] },
      });
      expect(response.json()).toMatchObject({ code: 200, data: { accepted: 1, ignored: 0 } });

      expect(await db().selectFrom('hotelAlarm').select(['clearedBy', 'clearedAt']).where('id', '=', cause.id).executeTakeFirstOrThrow()).toMatchObject({
        clearedBy: '系统',
        clearedAt: expect.any(Number) as number,
      });
      expect(await activeAlarm(heard.id)).toBeUndefined();
      const own = (await activeAlarm(silent.id))!;
      expect(own).toMatchObject({ causeId: null, message: PROMOTED_MESSAGE });
      expect((await listCauses(silent.sn)).records).toMatchObject([{ id: own.id, causeId: null, symptomCount: 0 }]);
      // The live stream hears of the new alarm (and of the clears).
      const events = await db().selectFrom('eventOutbox').select(['kind', 'payload']).where('id', '>', Number(outboxBefore)).orderBy('id').execute();
      expect(events.some((event) => event.kind === 'alarm-raised' && (JSON.parse(event.payload) as { deviceIds: number[] }).deviceIds.includes(silent.id))).toBe(true);
      expect(events.some((event) => event.kind === 'alarm-cleared' && (JSON.parse(event.payload) as { alarmIds: number[] }).alarmIds.includes(Number(cause.id)))).toBe(true);
    });

    it('a child offline while its gateway is online gets its own alarm (a cause)', async () => {
      const { gateway, children } = await gatewayWithChildren(ctx(), 1);
      const now = Date.now();
      await setPresence(db(), [gateway.id], { online: 1, lastSeenAt: now });
      await silentSince([children[0].id], now);
      expect(await activeAlarm(gateway.id)).toBeUndefined();
      expect(await activeAlarm(children[0].id)).toMatchObject({ causeId: null });
      expect(await history(children[0].id)).toEqual([{ online: 0, cause: 'sweep' }]);
    });

    it('a child heard from seconds ago stays online when its gateway goes down; a deleted child is left out', async () => {
      const { gateway, children } = await gatewayWithChildren(ctx(), 4);
      const [heard, deleted, ...silent] = children as [(typeof children)[0], (typeof children)[0], ...typeof children];
      const now = Date.now();
      await setPresence(db(), [gateway.id, ...silent.map((child) => child.id), deleted.id], { online: 1, lastSeenAt: now - 10 * MINUTE });
      // Heard from through another path (its own heartbeat) just before the sweep.
      await setPresence(db(), [heard.id], { online: 1, lastSeenAt: now - 5_000 });
      expectOk(await ctx().call('/hotel/device/removal', { id: deleted.id }, admin));
      await runTask('device.offlineSweep', { minutes: 5 }, { app: ctx().app, now });

      const cause = (await activeAlarm(gateway.id))!;
      expect(cause).toMatchObject({ causeId: null, startedAt: now });
      for (const child of silent) {
        expect(await activeAlarm(child.id)).toMatchObject({ causeId: cause.id, message: UNREACHABLE_MESSAGE });
        expect(await history(child.id)).toEqual([{ online: 0, cause: UNREACHABLE }]);
      }
      const online = (id: number) => db().selectFrom('hotelDevicePresence').select('online').where('id', '=', id).executeTakeFirst();
      expect(await online(heard.id)).toEqual({ online: 1 });
      expect(await activeAlarm(heard.id)).toBeUndefined();
      expect(await history(heard.id)).toEqual([]);
      expect(await activeAlarm(deleted.id)).toBeUndefined();
      expect(await history(deleted.id)).toEqual([]);
    });

    it("a gateway down with children of two hotels: each child's events go to its own hotel", async () => {
      const { gateway, children } = await gatewayWithChildren(ctx(), 2);
      const [first, second] = children as [(typeof children)[0], (typeof children)[0]];
      const units = await db().selectFrom('sysOrg').select('id').orderBy('id').limit(2).execute();
      expect(units).toHaveLength(2);
      const [unitA, unitB] = units.map((unit) => unit.id) as [number, number];
      // Set straight in the table: the screens keep a child in its gateway's hotel, the sweep must not rely on it.
      await db().updateTable('hotelDevice').set({ orgId: unitA }).where('id', 'in', [gateway.id, first.id]).execute();
      await db().updateTable('hotelDevice').set({ orgId: unitB }).where('id', '=', second.id).execute();
      const outboxBefore = Number(
        (
          await db()
            .selectFrom('eventOutbox')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirst()
        )?.id ?? 0,
      );
      await silentSince([gateway.id, first.id, second.id], Date.now());

      const events = await db().selectFrom('eventOutbox').select(['kind', 'payload', 'orgId']).where('id', '>', outboxBefore).orderBy('id').execute();
      const addressed = (kind: string, deviceId: number) =>
        events.filter((event) => event.kind === kind && (JSON.parse(event.payload) as { deviceIds: number[] }).deviceIds.includes(deviceId)).map((event) => event.orgId);
      for (const kind of ['device-status', 'alarm-raised']) {
        expect(addressed(kind, gateway.id)).toEqual([unitA]);
        expect(addressed(kind, first.id)).toEqual([unitA]);
        expect(addressed(kind, second.id)).toEqual([unitB]);
      }
      expect(await activeAlarm(second.id)).toMatchObject({ causeId: (await activeAlarm(gateway.id))!.id });
      // The children's events are written by the database: the same fields as the gateway's own.
      const payloadOf = (kind: string, deviceId: number) =>
        events
          .map((event) => ({ kind: event.kind, payload: JSON.parse(event.payload) as { deviceIds: number[] } }))
          .find((event) => event.kind === kind && event.payload.deviceIds.includes(deviceId))!.payload;
      for (const kind of ['device-status', 'alarm-raised']) expect(payloadOf(kind, second.id)).toEqual({ ...payloadOf(kind, gateway.id), deviceIds: [second.id] });
    });

    it('gateways in chunks of changing size: every gateway and child offline once', async () => {
      const sets = [];
      for (let i = 0; i < 5; i += 1) sets.push(await gatewayWithChildren(ctx(), 2));
      const ids = sets.flatMap(({ gateway, children }) => [gateway.id, ...children.map((child) => child.id)]);
      const now = Date.now();
      await setPresence(db(), ids, { online: 1, lastSeenAt: now - 10 * MINUTE });
      await sweepOffline(ctx().app, now, 5, { ...sweepPacing(ctx().app), gateways: scriptedPacing([2, 1, 3]) });
      for (const { gateway, children } of sets) {
        expect(await history(gateway.id)).toEqual([{ online: 0, cause: 'sweep' }]);
        const cause = (await activeAlarm(gateway.id))!;
        for (const child of children) {
          expect(await history(child.id)).toEqual([{ online: 0, cause: UNREACHABLE }]);
          expect(await activeAlarm(child.id)).toMatchObject({ causeId: cause.id });
        }
      }
    });

    it('one chunk at a time while the records itemize, then side by side on PostgreSQL (one at a time on SQLite): every gateway and child offline once', async () => {
      // Straight in the table: more gateways than the records itemize, a child each.
      serial += 1;
      const insert = (rows: ReturnType<typeof deviceRow>[]) => db().insertInto('hotelDevice').values(rows).returning('id').execute();
      const gateways = await insert(Array.from({ length: AUDIT_ITEMIZED + 20 }, (_, i) => deviceRow(`CS-LANE-${serial}-${i}`, { type: 'gateway' })));
      const childRows = await insert(gateways.map((gateway, i) => deviceRow(`CS-LANE-${serial}-${i}-C`, { gatewayId: gateway.id })));
      const sets = gateways.map((gateway, i) => ({ gateway, children: [childRows[i]] }));
      const now = Date.now();
      await setPresence(
        db(),
        [...gateways, ...childRows].map((device) => device.id),
        { online: 1, lastSeenAt: now - 10 * MINUTE },
      );
      const { pacing, most, underWay } = overlapPacing(5);
      expect(await sweepOffline(ctx().app, now, 5, { ...sweepPacing(ctx().app), gateways: pacing })).toBe(`已将 ${sets.length * 2} 台超过 5 分钟没有心跳的设备标记为离线`);
      expect(most()).toBe(GATEWAY_LANES[ctx().database.dialect]);
      // Until the records itemize no more (each chunk raises 5 gateway alarms: 100 after the 20th),
      // one chunk at a time, so they name the same devices and alarms however many lanes run.
      expect(underWay.slice(0, AUDIT_ITEMIZED / 5 - 1)).toEqual(Array.from({ length: AUDIT_ITEMIZED / 5 - 1 }, () => 1));
      for (const { gateway, children } of sets) {
        expect(await history(gateway.id)).toEqual([{ online: 0, cause: 'sweep' }]);
        const cause = (await activeAlarm(gateway.id))!;
        expect(cause).toMatchObject({ causeId: null, count: 1 });
        for (const child of children) {
          expect(await history(child.id)).toEqual([{ online: 0, cause: UNREACHABLE }]);
          expect(await activeAlarm(child.id)).toMatchObject({ causeId: cause.id, count: 1 });
        }
      }
    });

    it('rules for causes only hear of the gateway, not of its unreachable children; rules with symptoms hear of both', async () => {
      const causesOnly = await createChannel(ctx(), admin, { name: `根因-${ctx().database.dialect}`, type: 'webhook', config: { url: 'http://127.0.0.1:9/causes' } });
      const everything = await createChannel(ctx(), admin, { name: `全部-${ctx().database.dialect}`, type: 'webhook', config: { url: 'http://127.0.0.1:9/all' } });
      const rule = (name: string, channelId: number, symptoms: number) =>
        ctx().call(
          '/monitor/rule/creation',
          {
            name,
            state: 1,
            alarmTypes: [],
            minSeverity: 'warning',
            orgId: null,
            locationId: null,
            symptoms,
            channelIds: [channelId],
            quietStart: null,
            quietEnd: null,
            escalation: [],
            remark: '',
          },
          admin,
        );
      expectOk(await rule(`仅根因-${ctx().database.dialect}`, causesOnly.id, 0));
      expectOk(await rule(`含衍生-${ctx().database.dialect}`, everything.id, 1));
      const { gateway, children } = await gatewayWithChildren(ctx(), 2);
      await silentSince([gateway.id, ...children.map((child) => child.id)], Date.now());
      // The worker turns the alarms' events into messages.
      await expandAll(ctx());
      const told = async (channelId: number) =>
        (
          await db()
            .selectFrom('notifyMessage as m')
            .innerJoin('hotelAlarm as a', 'a.id', 'm.alarmId')
            .select('a.deviceId')
            .where('m.channelId', '=', channelId)
            .where('m.kind', '=', 'raise')
            .execute()
        )
          .map((row) => row.deviceId)
          .sort((a, b) => a - b);
      expect(await told(causesOnly.id)).toEqual([gateway.id]);
      expect(await told(everything.id)).toEqual([gateway.id, ...children.map((child) => child.id)].sort((a, b) => a - b));
    });
  },
  notifySettings(),
);
