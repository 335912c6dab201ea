/**
 * Issue 28: alarms reach people. A device going offline (the offline sweep) or coming back (its
 * heartbeat) leaves a marker in the alarm's own transaction; the worker expands it into messages for
 * the matching rules and delivers them to real local receivers. One message per matching channel with the alarm's text and
 * its console link; the clear goes to the channels told of the raise; maintenance windows and quiet
 * hours keep it quiet (the alarm is still recorded); an escalation step goes out after its minutes
 * unless the alarm was acknowledged. On both databases.
 */
import { describeOnEachDatabase } from './support/harness';
import { expectOk, setPresence } from './support/sys-fixtures';
import { VendorReceiver } from './support/vendor-receiver';
import { CONSOLE_URL, createChannel, expandAll, messagesOf, notifySettings, TestClock, testWorker } from './support/notify-fixtures';
import { runTask } from '../../src/server/services/scheduler/tasks';
import { inQuietHours } from '../../src/server/services/notification/alarm-events';
import type { BodyOf } from '../../src/contract';

const MINUTE = 60_000;
type RuleBody = BodyOf<'/monitor/rule/creation'>;

describeOnEachDatabase(
  'alarm notifications',
  (ctx) => {
    let admin: string;
    let clock: TestClock;
    let receiver: VendorReceiver;
    let serial = 0;

    beforeAll(async () => {
      admin = await ctx().login();
      // Heartbeats and staff clears stamp the real time: the worker's clock runs ahead of it.
      clock = new TestClock(Date.now());
      receiver = await VendorReceiver.start(clock.now);
    });
    afterAll(async () => {
      await receiver.close();
    });
    // Each test sweeps only its own devices, and starts without rules or windows of earlier tests.
    beforeEach(async () => {
      const { db } = ctx().database;
      await db.updateTable('hotelDevicePresence').set({ online: 0 }).execute();
      await db.updateTable('notifyRule').set({ state: 0 }).execute();
      await db.updateTable('notifyMaintenance').set({ state: 0 }).execute();
      clock.advance(60 * MINUTE);
    });

    const db = () => ctx().database.db;
    const worker = () => testWorker(ctx(), clock);

    async function location(name: string, parentId = 0) {
      const now = Date.now();
      const row = await db()
        .insertInto('hotelLocation')
        .values({ parentId, kind: parentId === 0 ? 'building' : 'floor', name, sort: 0, createdAt: now, updatedAt: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }

    /** A unit under `pid` (the group's root when none). */
    async function unit(name: string, kind: string, pid?: number) {
      const now = Date.now();
      const parent = pid ?? (await db().selectFrom('sysOrg').select('id').where('pid', 'is', null).orderBy('id').executeTakeFirstOrThrow()).id;
      const row = await db()
        .insertInto('sysOrg')
        .values({ pid: parent, name, kind, code: `NTF-${name}-${serial}`, state: 1, sort: 0, remark: '', createdAt: now, updatedAt: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }

    async function device(locationId: number | null = null) {
      serial += 1;
      const sn = `NTF-${String(serial).padStart(4, '0')}`;
      const created = expectOk(await ctx().call('/hotel/device/creation', { name: `客房 ${serial} 门锁`, sn, type: 'lock', state: 1, remark: '' }, admin));
      if (locationId !== null) await db().updateTable('hotelDevice').set({ locationId }).where('id', '=', created.device.id).execute();
      return { ...created.device, key: created.deviceKey };
    }

    /** The devices go offline at the clock's time: the sweep raises their alarms; their messages are queued. */
    async function goOffline(ids: number[]) {
      await setPresence(db(), ids, { online: 1, lastSeenAt: clock.now() - 10 * MINUTE });
      await runTask('device.offlineSweep', { minutes: 5 }, { app: ctx().app, now: clock.now() });
      await expandAll(ctx());
    }

    /** The device reports: its alarm clears; the clear's messages are queued. */
    async function heartbeat(sn: string, key: string) {
      const response = await ctx().app.inject({ method: 'POST', url: '/api/hotel/device/heartbeat', headers: { 'x-device-key': key }, payload: { sn } });
      expect(response.json()).toMatchObject({ code: 200 });
      await expandAll(ctx());
    }

    const alarmOf = (deviceId: number) => db().selectFrom('hotelAlarm').selectAll().where('deviceId', '=', deviceId).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const messagesAbout = (alarmId: number) => db().selectFrom('notifyMessage').selectAll().where('alarmId', '=', alarmId).orderBy('id').execute();

    async function rule(body: Partial<RuleBody> & Pick<RuleBody, 'channelIds'>) {
      serial += 1;
      return expectOk(
        await ctx().call(
          '/monitor/rule/creation',
          {
            name: `规则 ${serial}`,
            state: 1,
            alarmTypes: [],
            minSeverity: 'warning',
            orgId: null,
            locationId: null,
            symptoms: 1,
            quietStart: null,
            quietEnd: null,
            escalation: [],
            remark: '',
            ...body,
          },
          admin,
        ),
      );
    }

    async function webhookChannel(name: string) {
      const url = receiver.webhook(name);
      return createChannel(ctx(), admin, { name, type: 'webhook', config: { url } });
    }

    it('an alarm goes once to each matching channel with its text and link; the clear goes to the same channels', async () => {
      const building = await location('1 号楼');
      const floor = await location('8 层', building);
      const ding = await createChannel(ctx(), admin, { name: '告警-钉钉', type: 'dingtalk', config: { url: receiver.dingtalk('alarm-ding') } });
      const hook = await webhookChannel('alarm-hook');
      const other = await webhookChannel('alarm-other-building');
      // Two rules naming the DingTalk channel: still one message to it.
      await rule({ channelIds: [ding.id, hook.id] });
      await rule({ channelIds: [ding.id], minSeverity: 'major', alarmTypes: ['offline'], locationId: building });
      // Not matching: another subtree, and a severity above the alarm's (major).
      await rule({ channelIds: [other.id], locationId: await location('2 号楼') });
      await rule({ channelIds: [other.id], minSeverity: 'critical' });

      const d = await device(floor);
      await goOffline([d.id]);
      const alarm = await alarmOf(d.id);
      const raised = await messagesAbout(alarm.id);
      expect(raised.map((m) => [m.channelId, m.kind, m.state])).toEqual([
        [ding.id, 'raise', 'queued'],
        [hook.id, 'raise', 'queued'],
      ]);
      await worker().drain();

      const [dingGot] = receiver.of('dingtalk', 'alarm-ding');
      expect(dingGot.body).toEqual({
        msgtype: 'markdown',
        markdown: {
          title: `【重要】设备离线：${d.name}`,
          text: `#### 【重要】设备离线：${d.name}\n\n- **设备**：${d.name}（${d.sn}）\n- **位置**：1 号楼 / 8 层\n- **级别**：重要\n- **信息**：设备心跳超时，已离线\n- **开始时间**：${formatShanghai(clock.now())}\n\n[查看详情](${CONSOLE_URL}/hotel/alarm?id=${alarm.id})`,
        },
      });
      const [hookGot] = receiver.of('webhook', 'alarm-hook');
      expect(hookGot.body).toMatchObject({
        kind: 'raise',
        title: `【重要】设备离线：${d.name}`,
        text: `设备：${d.name}（${d.sn}）\n位置：1 号楼 / 8 层\n级别：重要\n信息：设备心跳超时，已离线\n开始时间：${formatShanghai(clock.now())}`,
        link: `${CONSOLE_URL}/hotel/alarm?id=${alarm.id}`,
        alarmId: alarm.id,
        alarm: { id: alarm.id, type: 'offline', severity: 'major', deviceSn: d.sn, location: '1 号楼 / 8 层', event: 'raise' },
      });
      expect(receiver.of('webhook', 'alarm-other-building')).toHaveLength(0);

      clock.advance(2 * MINUTE);
      await heartbeat(d.sn, d.key);
      const all = await messagesAbout(alarm.id);
      expect(all.filter((m) => m.kind === 'clear').map((m) => m.channelId)).toEqual([ding.id, hook.id]);
      await worker().drain();
      expect(receiver.of('webhook', 'alarm-hook').map((got) => (got.body as { title: string }).title)).toEqual([`【重要】设备离线：${d.name}`, `【已恢复】设备离线：${d.name}`]);
      expect(receiver.of('dingtalk', 'alarm-ding')).toHaveLength(2);
    });

    it('a rule naming an organisation unit takes the alarms of devices in that unit and below, and no others', async () => {
      const region = await unit('华东区', 'region');
      const hotel = await unit('上海店', 'hotel', region);
      const elsewhere = await unit('北京店', 'hotel');
      const regional = await webhookChannel('org-region');
      const local = await webhookChannel('org-hotel');
      const ruled = await rule({ channelIds: [regional.id], orgId: region });
      expect(ruled).toMatchObject({ orgId: region, orgName: '华东区' });
      await rule({ channelIds: [local.id], orgId: hotel });
      const inHotel = await device();
      const inOther = await device();
      const unplaced = await device();
      await db().updateTable('hotelDevice').set({ orgId: hotel }).where('id', '=', inHotel.id).execute();
      await db().updateTable('hotelDevice').set({ orgId: elsewhere }).where('id', '=', inOther.id).execute();
      await db().updateTable('hotelDevice').set({ orgId: null }).where('id', '=', unplaced.id).execute();
      await goOffline([inHotel.id, inOther.id, unplaced.id]);
      expect((await messagesAbout((await alarmOf(inHotel.id)).id)).map((m) => m.channelId).sort()).toEqual([regional.id, local.id].sort());
      expect(await messagesAbout((await alarmOf(inOther.id)).id)).toEqual([]);
      expect(await messagesAbout((await alarmOf(unplaced.id)).id)).toEqual([]);
    });

    it('an edited template makes the text of the messages queued after it, Markdown on the robot, the link filled when sent', async () => {
      const building = await location('模板楼');
      const ding = await createChannel(ctx(), admin, { name: '模板-钉钉', type: 'dingtalk', config: { url: receiver.dingtalk('template-ding') } });
      const hook = await webhookChannel('template-hook');
      await rule({ channelIds: [ding.id, hook.id] });
      expectOk(
        await ctx().call(
          '/monitor/template/edit',
          { channelType: 'dingtalk', kind: 'raise', title: '{{alarmType}}·{{deviceName}}', body: '**{{location}}**（{{severity}}）\n[处理]({{link}})', version: 0 },
          admin,
        ),
      );
      try {
        const d = await device(building);
        await goOffline([d.id]);
        const alarm = await alarmOf(d.id);
        await worker().drain();
        const [dingGot] = receiver.of('dingtalk', 'template-ding');
        expect(dingGot.body).toMatchObject({
          markdown: {
            title: `设备离线·${d.name}`,
            text: `#### 设备离线·${d.name}\n\n**模板楼**（重要）\n[处理](${CONSOLE_URL}/hotel/alarm?id=${alarm.id})\n\n[查看详情](${CONSOLE_URL}/hotel/alarm?id=${alarm.id})`,
          },
        });
        // Another channel type keeps its default.
        expect(receiver.of('webhook', 'template-hook')[0].body).toMatchObject({ title: `【重要】设备离线：${d.name}` });
      } finally {
        await db().deleteFrom('notifyTemplate').execute();
      }
    });

    it('a mass outage: one sweep queues a message per alarm; the robot gets 20, the rest one digest, none lost', async () => {
      const ding = await createChannel(ctx(), admin, { name: '告警-钉钉-风暴', type: 'dingtalk', config: { url: receiver.dingtalk('storm-ding') } });
      await rule({ channelIds: [ding.id] });
      const devices = [];
      for (let n = 0; n < 60; n += 1) devices.push(await device());
      await goOffline(devices.map((d) => d.id));
      const queued = await messagesOf(ctx(), ding.id);
      expect(queued).toHaveLength(60);
      expect(new Set(queued.map((m) => m.alarmId)).size).toBe(60);

      await worker().drain();
      clock.advance(MINUTE);
      await worker().drain();
      const after = await messagesOf(ctx(), ding.id);
      const digest = after.find((m) => m.kind === 'digest');
      expect(after.filter((m) => m.kind === 'raise' && m.state === 'sent')).toHaveLength(20);
      expect(after.filter((m) => m.kind === 'raise' && m.state === 'digested' && m.digestId === digest?.id)).toHaveLength(40);
      expect(digest).toMatchObject({ state: 'sent' });
      expect(receiver.of('dingtalk', 'storm-ding')).toHaveLength(21);
    });

    it('a clear by staff is told too; an alarm nobody was told of clears quietly', async () => {
      const hook = await webhookChannel('staff-clear');
      await rule({ channelIds: [hook.id] });
      const told = await device();
      await goOffline([told.id]);
      const alarm = await alarmOf(told.id);
      expect(await ctx().call('/hotel/alarm/clear', { ids: [alarm.id] }, admin)).toMatchObject({ code: 200 });
      await expandAll(ctx());
      expect((await messagesAbout(alarm.id)).map((m) => m.kind)).toEqual(['raise', 'clear']);

      await db().updateTable('notifyRule').set({ state: 0 }).execute();
      const quiet = await device();
      await goOffline([quiet.id]);
      const quietAlarm = await alarmOf(quiet.id);
      expect(await ctx().call('/hotel/alarm/clear', { ids: [quietAlarm.id] }, admin)).toMatchObject({ code: 200 });
      await expandAll(ctx());
      expect(await messagesAbout(quietAlarm.id)).toEqual([]);
    });

    it('a maintenance window silences its subtree for its period: the alarm is recorded, nothing is sent', async () => {
      const building = await location('维修楼');
      const floor = await location('3 层', building);
      const hook = await webhookChannel('maintenance');
      await rule({ channelIds: [hook.id] });
      expectOk(
        await ctx().call(
          '/monitor/maintenance/creation',
          { name: '3 层装修', locationId: building, startsAt: clock.now() - MINUTE, endsAt: clock.now() + 30 * MINUTE, state: 1, remark: '' },
          admin,
        ),
      );
      const inside = await device(floor);
      const outside = await device();
      await goOffline([inside.id, outside.id]);
      expect((await alarmOf(inside.id)).clearedAt).toBeNull();
      expect(await messagesAbout((await alarmOf(inside.id)).id)).toEqual([]);
      expect(await messagesAbout((await alarmOf(outside.id)).id)).toHaveLength(1);

      // After the window, the subtree is told again.
      clock.advance(31 * MINUTE);
      const later = await device(floor);
      await goOffline([later.id]);
      expect(await messagesAbout((await alarmOf(later.id)).id)).toHaveLength(1);
    });

    it('quiet hours (Asia/Shanghai, across midnight) keep a rule quiet', async () => {
      const hook = await webhookChannel('quiet');
      // Windows are read in Shanghai time (UTC+8).
      expect(inQuietHours(22 * 60, 7 * 60, Date.UTC(2025, 0, 6, 15, 30))).toBe(true); // 23:30
      expect(inQuietHours(22 * 60, 7 * 60, Date.UTC(2025, 0, 6, 22, 59))).toBe(true); // 06:59
      expect(inQuietHours(22 * 60, 7 * 60, Date.UTC(2025, 0, 6, 23, 0))).toBe(false); // 07:00
      expect(inQuietHours(9 * 60, 18 * 60, Date.UTC(2025, 0, 6, 2, 0))).toBe(true); // 10:00
      const shanghaiMinute = Math.floor(((clock.now() + 8 * 60 * MINUTE) % (24 * 60 * MINUTE)) / MINUTE);
      await rule({ channelIds: [hook.id], quietStart: shanghaiMinute, quietEnd: (shanghaiMinute + 60) % (24 * 60) });
      const d = await device();
      await goOffline([d.id]);
      expect(await messagesAbout((await alarmOf(d.id)).id)).toEqual([]);
    });

    it('escalates an unacknowledged alarm after the step’s minutes; an acknowledgement stops it', async () => {
      const first = await webhookChannel('first-line');
      const manager = await webhookChannel('manager');
      await rule({ channelIds: [first.id], escalation: [{ afterMinutes: 15, channelIds: [manager.id] }] });
      const ignored = await device();
      const handled = await device();
      await goOffline([ignored.id, handled.id]);
      const ignoredAlarm = await alarmOf(ignored.id);
      const handledAlarm = await alarmOf(handled.id);
      expect(await ctx().call('/hotel/alarm/acknowledge', { ids: [handledAlarm.id] }, admin)).toMatchObject({ code: 200 });

      clock.advance(14 * MINUTE);
      await worker().drain();
      expect(await messagesOf(ctx(), manager.id)).toEqual([]);
      clock.advance(MINUTE);
      await worker().drain();
      const escalated = await messagesOf(ctx(), manager.id);
      expect(escalated.map((m) => [m.alarmId, m.kind, m.state])).toEqual([[ignoredAlarm.id, 'escalation', 'sent']]);
      expect(escalated[0].title).toBe(`【升级·15 分钟未确认】【重要】设备离线：${ignored.name}`);
      // Taken once: the next round sends nothing more.
      clock.advance(MINUTE);
      await worker().drain();
      expect(await messagesOf(ctx(), manager.id)).toHaveLength(1);
      // The manager was told: the clear reaches the manager too.
      await heartbeat(ignored.sn, ignored.key);
      expect((await messagesAbout(ignoredAlarm.id)).map((m) => [m.channelId, m.kind])).toEqual([
        [first.id, 'raise'],
        [manager.id, 'escalation'],
        [first.id, 'clear'],
        [manager.id, 'clear'],
      ]);
    });

    it('two instances take each due escalation step once', async () => {
      const first = await webhookChannel('first-line-3');
      const manager = await webhookChannel('manager-3');
      await rule({ channelIds: [first.id], escalation: [{ afterMinutes: 5, channelIds: [manager.id] }] });
      const devices = [await device(), await device(), await device()];
      await goOffline(devices.map((d) => d.id));
      clock.advance(5 * MINUTE);
      await Promise.all([testWorker(ctx(), clock, 'instance-a').drain(), testWorker(ctx(), clock, 'instance-b').drain()]);
      const escalated = await messagesOf(ctx(), manager.id);
      expect(escalated.map((m) => m.kind)).toEqual(['escalation', 'escalation', 'escalation']);
      expect(new Set(escalated.map((m) => m.alarmId)).size).toBe(3);
    });

    it('a clear stops a pending escalation', async () => {
      const first = await webhookChannel('first-line-2');
      const manager = await webhookChannel('manager-2');
      await rule({ channelIds: [first.id], escalation: [{ afterMinutes: 5, channelIds: [manager.id] }] });
      const d = await device();
      await goOffline([d.id]);
      await heartbeat(d.sn, d.key);
      clock.advance(10 * MINUTE);
      await worker().drain();
      expect(await messagesOf(ctx(), manager.id)).toEqual([]);
    });
  },
  notifySettings(),
);

function formatShanghai(at: number): string {
  return new Date(at + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}
