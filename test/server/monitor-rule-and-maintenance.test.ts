/**
 * Issue 28: 通知规则 and 维护窗口 through the API: saved as sent and answered with the location's
 * path; what the schema cannot refuse is refused with a Chinese message and changes nothing; edits
 * are versioned; a rule's removal takes its waiting escalation steps with it. On both databases.
 */
import { describeOnEachDatabase } from './support/harness';
import { expectOk } from './support/sys-fixtures';
import { createChannel, notifySettings } from './support/notify-fixtures';
import type { BodyOf } from '../../src/contract';

const HOUR = 3_600_000;

describeOnEachDatabase(
  'monitor/rule and monitor/maintenance',
  (ctx) => {
    let admin: string;
    let channelId: number;
    let floorId: number;
    beforeAll(async () => {
      admin = await ctx().login();
      channelId = (await createChannel(ctx(), admin, { name: '规则测试渠道', type: 'webhook', config: { url: 'http://127.0.0.1:9/hook' } })).id;
      const now = Date.now();
      const { db } = ctx().database;
      const building = await db
        .insertInto('hotelLocation')
        .values({ parentId: 0, kind: 'building', name: 'A 座', sort: 0, createdAt: now, updatedAt: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      floorId = (
        await db
          .insertInto('hotelLocation')
          .values({ parentId: building.id, kind: 'floor', name: '5F', sort: 0, createdAt: now, updatedAt: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    });

    const ruleBody = (overrides: Partial<BodyOf<'/monitor/rule/creation'>> = {}): BodyOf<'/monitor/rule/creation'> => ({
      name: '离线告警',
      state: 1,
      alarmTypes: ['offline'],
      minSeverity: 'major',
      orgId: null,
      locationId: null,
      symptoms: 0,
      channelIds: [channelId],
      quietStart: 22 * 60,
      quietEnd: 7 * 60,
      escalation: [{ afterMinutes: 15, channelIds: [channelId] }],
      remark: '',
      ...overrides,
    });
    const rules = () => ctx().database.db.selectFrom('notifyRule').selectAll().execute();

    it('creates, lists, edits and removes a rule', async () => {
      const created = expectOk(await ctx().call('/monitor/rule/creation', ruleBody({ locationId: floorId }), admin));
      expect(created).toMatchObject({
        name: '离线告警',
        alarmTypes: ['offline'],
        minSeverity: 'major',
        locationPath: 'A 座 / 5F',
        orgId: null,
        orgName: '',
        symptoms: 0,
        channelIds: [channelId],
        quietStart: 1320,
        quietEnd: 420,
        escalation: [{ afterMinutes: 15, channelIds: [channelId] }],
        version: 0,
      });
      const page = expectOk(await ctx().call('/monitor/rule/inquire', { size: 20, current: 1, params: { name: '离线' } }, admin));
      expect(page.records.map((rule) => rule.id)).toEqual([created.id]);

      const { id, version } = created;
      const edited = expectOk(await ctx().call('/monitor/rule/edit', { ...ruleBody(), id, version, minSeverity: 'critical', quietStart: null, quietEnd: null }, admin));
      expect(edited).toMatchObject({ minSeverity: 'critical', quietStart: null, quietEnd: null, orgId: null, orgName: '', locationId: null, locationPath: '', version: 1 });
      expect(await ctx().call('/monitor/rule/edit', { ...ruleBody(), id, version }, admin)).toMatchObject({ code: 409 });

      await ctx()
        .database.db.insertInto('notifyEscalation')
        .values({ alarmId: 1, ruleId: id, step: 0, dueAt: Date.now() + HOUR })
        .execute();
      expect(await ctx().call('/monitor/rule/removal', { id }, admin)).toMatchObject({ code: 200, msg: '删除成功' });
      expect(await ctx().database.db.selectFrom('notifyEscalation').selectAll().where('ruleId', '=', id).execute()).toEqual([]);
      expect(await ctx().call('/monitor/rule/removal', { id }, admin)).toEqual({ code: 404, msg: '通知规则不存在', data: null });
    });

    type Overrides = (channel: number) => Partial<BodyOf<'/monitor/rule/creation'>>;
    const refusals: Array<[string, Overrides, number, string]> = [
      ['half a quiet window', () => ({ quietStart: 60, quietEnd: null }), 400, '免打扰开始和结束时间须同时设置或同时留空'],
      ['an unknown alarm type', () => ({ alarmTypes: ['fire'] }), 400, '告警类型不正确：fire'],
      ['a name every object has, not an alarm type', () => ({ alarmTypes: ['constructor'] }), 400, '告警类型不正确：constructor'],
      ['no channel at all', () => ({ channelIds: [], escalation: [] }), 400, '请至少选择一个通知渠道或升级渠道'],
      ['an unknown channel', () => ({ channelIds: [999_999] }), 404, '通知渠道不存在'],
      ['an unknown location', () => ({ locationId: 999_999 }), 404, '位置不存在'],
      ['an unknown organisation unit', () => ({ orgId: 999_999 }), 404, '组织单位不存在'],
      [
        'steps out of order',
        (channel) => ({
          escalation: [
            { afterMinutes: 30, channelIds: [channel] },
            { afterMinutes: 10, channelIds: [channel] },
          ],
        }),
        400,
        '升级步骤的等待分钟数须逐级增加',
      ],
    ];
    it.each(refusals)('refuses %s and saves nothing', async (_what, overrides, code, msg) => {
      const before = await rules();
      expect(await ctx().call('/monitor/rule/creation', ruleBody({ name: '错误规则', ...overrides(channelId) }), admin)).toEqual({ code, msg, data: null });
      expect(await rules()).toEqual(before);
    });

    it('saves a maintenance window over a subtree, refuses one that ends before it starts', async () => {
      const startsAt = Date.now();
      const created = expectOk(
        await ctx().call('/monitor/maintenance/creation', { name: '5F 装修', locationId: floorId, startsAt, endsAt: startsAt + 2 * HOUR, state: 1, remark: '' }, admin),
      );
      expect(created).toMatchObject({ name: '5F 装修', locationPath: 'A 座 / 5F', startsAt, endsAt: startsAt + 2 * HOUR });
      expect(await ctx().call('/monitor/maintenance/creation', { name: '倒置', locationId: null, startsAt, endsAt: startsAt - 1, state: 1, remark: '' }, admin)).toEqual({
        code: 400,
        msg: '结束时间须晚于开始时间',
        data: null,
      });
      const edited = expectOk(
        await ctx().call(
          '/monitor/maintenance/edit',
          { id: created.id, version: created.version, name: '5F 装修', locationId: null, startsAt, endsAt: startsAt + HOUR, state: 1, remark: '延期' },
          admin,
        ),
      );
      expect(edited).toMatchObject({ locationPath: '', endsAt: startsAt + HOUR, remark: '延期', version: 1 });
      const page = expectOk(await ctx().call('/monitor/maintenance/inquire', { size: 20, current: 1, params: {} }, admin));
      expect(page.records.map((window) => window.name)).toContain('5F 装修');
      expect(await ctx().call('/monitor/maintenance/removal', { id: created.id }, admin)).toMatchObject({ code: 200 });
    });
  },
  notifySettings(),
);
