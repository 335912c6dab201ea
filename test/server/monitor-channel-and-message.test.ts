/**
 * Issue 28: the 通知渠道 and 通知记录 endpoints on both databases. Credentials (the robot's webhook
 * address with its token, the signing secret, the SMTP password) are write-only: never in an answer
 * or an audit record, masked, kept when an edit leaves them blank. A configuration a type cannot use
 * is refused naming the field. 测试发送 answers the vendor's status and body and our reading.
 */
import { describeOnEachDatabase } from './support/harness';
import { expectOk, rowCount, expectRefused } from './support/sys-fixtures';
import { VendorReceiver } from './support/vendor-receiver';
import { alarmMessage, channelRow, createChannel, enqueue, notifySettings, TestClock } from './support/notify-fixtures';
import { download } from './support/files';
import type { BodyOf, EndpointKey } from '../../src/contract';
import { maskUrl } from '../../src/server/services/notification/channel-config';

const TOKEN = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0';
const SECRET = 'SECa9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1';
const SMTP_PASSWORD = 'smtp-secret-Passw0rd';
/** An e-mail channel's configuration, with what a case changes. */
type ChannelConfig = BodyOf<'/monitor/channel/creation'>['config'];
const mailConfig = (overrides: Partial<ChannelConfig> = {}): ChannelConfig => ({
  host: 'smtp.example.com',
  port: 465,
  security: 'tls',
  user: 'alarm@example.com',
  password: SMTP_PASSWORD,
  from: 'alarm@example.com',
  to: ['cfo@example.com'],
  ...overrides,
});

describeOnEachDatabase(
  'monitor/channel and monitor/message',
  (ctx) => {
    let admin: string;
    let receiver: VendorReceiver;
    let dingUrl: string;
    beforeAll(async () => {
      admin = await ctx().login();
      receiver = await VendorReceiver.start();
      dingUrl = receiver.dingtalk(TOKEN, { secret: SECRET });
    });
    afterAll(() => receiver.close());

    /** The raw answer text, to show a credential appears nowhere in it. */
    const raw = async (key: EndpointKey, body: unknown) => {
      const response = await ctx().app.inject({ method: 'POST', url: `/api${key}`, headers: { authorization: `Bearer ${admin}` }, payload: body as object });
      return { text: response.body, json: response.json() };
    };
    const stored = async (id: number) => JSON.parse((await channelRow(ctx(), id)).config) as Record<string, unknown>;

    describe('credentials are write-only', () => {
      it('answers masks only, in the creation, the list and the audit record', async () => {
        const created = await raw('/monitor/channel/creation', { name: '钉钉-总台', type: 'dingtalk', config: { url: dingUrl, secret: SECRET }, state: 1, remark: '' });
        expect(created.json).toMatchObject({
          code: 200,
          msg: '保存成功',
          data: {
            name: '钉钉-总台',
            type: 'dingtalk',
            config: { urlMasked: `${receiver.base}/dingtalk/robot/send?access_token=******a9b0`, secretMasked: '******b2a1', maxAttempts: 5 },
            health: 'unknown',
            failedCount: 0,
            version: 0,
          },
        });
        const listed = await raw('/monitor/channel/inquire', { size: 20, current: 1 });
        for (const text of [created.text, listed.text]) {
          expect(text).not.toContain(TOKEN);
          expect(text).not.toContain(SECRET);
        }
        expect(await stored(created.json.data.id)).toEqual({ url: dingUrl, secret: SECRET });

        const record = await ctx()
          .database.db.selectFrom('sysOperationLog')
          .selectAll()
          .where('path', '=', '/monitor/channel/creation')
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        expect(record).toMatchObject({ module: '通知渠道', action: '新增通知渠道', targetType: 'channel', targetLabel: '钉钉-总台', outcome: 'success' });
        expect(JSON.parse(record.params)).toMatchObject({ config: { url: '******', secret: '******' } });
        expect(`${record.params}${record.changes}`).not.toContain(TOKEN);
      });

      it('keeps the stored credentials when an edit leaves them blank, replaces them when given', async () => {
        const e = await createChannel(ctx(), admin, { name: '邮件-财务', type: 'email', config: mailConfig() });
        expect(e.config).toEqual({ ...mailConfig({ password: undefined }), passwordMasked: '******w0rd', ratePerMinute: 0, maxAttempts: 5 });
        const edit = (version: number, config: ChannelConfig, remark = '') =>
          raw('/monitor/channel/edit', { id: e.id, version, name: '邮件-财务', type: 'email', config, state: 1, remark });
        const kept = await edit(0, mailConfig({ password: '', to: ['cfo@example.com', 'ceo@example.com'] }), '只加收件人');
        expect(kept.json).toMatchObject({
          code: 200,
          data: { version: 1, remark: '只加收件人', config: { passwordMasked: '******w0rd', to: ['cfo@example.com', 'ceo@example.com'] } },
        });
        expect(kept.text).not.toContain(SMTP_PASSWORD);
        expect((await stored(e.id)).password).toBe(SMTP_PASSWORD);

        expect((await edit(1, mailConfig({ password: 'a-new-password' }))).json.code).toBe(200);
        expect((await stored(e.id)).password).toBe('a-new-password');
      });

      it('asks for the address again when the type changes, and makes the health unknown again', async () => {
        const hook = await createChannel(ctx(), admin, { name: '换类型', type: 'webhook', config: { url: receiver.webhook('retype'), secret: 'hook-secret' } });
        await ctx().database.db.updateTable('notifyChannel').set({ health: 'ok', healthAt: Date.now() }).where('id', '=', hook.id).execute();
        const edit = (config: Record<string, unknown>) =>
          ctx().call('/monitor/channel/edit', { id: hook.id, version: 0, name: '换类型', type: 'feishu', config, state: 1, remark: '' }, admin);
        expectRefused(await edit({}), 'Webhook 地址不能为空');
        const moved = expectOk(await edit({ url: receiver.feishu('retyped') }));
        expect(moved).toMatchObject({ type: 'feishu', health: 'unknown', config: { secretMasked: '' } });
        expect(await stored(hook.id)).toEqual({ url: receiver.feishu('retyped') });
      });
    });

    describe('configuration is checked per type, naming the field', () => {
      it.each([
        ['a robot without its address', { type: 'dingtalk', config: {} }, 'Webhook 地址不能为空'],
        ['an address that is not http(s)', { type: 'wecom', config: { url: 'ftp://example.com/x' } }, 'Webhook 地址格式不正确：应为 http:// 或 https:// 开头的完整地址'],
        [
          'a key its type does not take',
          { type: 'dingtalk', config: { url: 'https://oapi.dingtalk.com/robot/send?access_token=x', host: 'smtp.example.com' } },
          '钉钉机器人渠道不使用配置项：SMTP 服务器',
        ],
        [
          'a signing secret for WeCom (no signing there)',
          { type: 'wecom', config: { url: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=x', secret: 's' } },
          '企业微信机器人渠道不使用配置项：签名密钥',
        ],
        ['an e-mail channel without recipients', { type: 'email', config: { host: 'smtp.example.com', port: 25, from: 'a@example.com', to: [] } }, '收件人不能为空'],
        [
          'a recipient that is not an address',
          { type: 'email', config: { host: 'smtp.example.com', port: 25, from: 'a@example.com', to: ['经理'] } },
          '收件人格式不正确：经理 不是邮箱地址',
        ],
        ['a port out of range', { type: 'email', config: { host: 'smtp.example.com', port: 70000, from: 'a@example.com', to: ['b@example.com'] } }, 'SMTP 端口不能大于 65535'],
        [
          'a host with blanks',
          { type: 'email', config: { host: 'smtp example', port: 25, from: 'a@example.com', to: ['b@example.com'] } },
          'SMTP 服务器格式不正确：应为主机名或 IP 地址',
        ],
        ['too many attempts', { type: 'webhook', config: { url: 'https://example.com/hook', maxAttempts: 11 } }, '最多尝试次数不能大于 10'],
        ['an unknown type', { type: 'sms', config: {} }, '渠道类型取值不正确'],
        ['an unknown configuration key', { type: 'webhook', config: { url: 'https://example.com/hook', token: 'x' } }, '不支持的字段：token'],
      ])('refuses %s with a 400, writing nothing', async (_case, body, msg) => {
        const before = await rowCount(ctx(), 'notifyChannel');
        const answer = await ctx().call('/monitor/channel/creation', { name: '不应保存', state: 1, remark: '', ...body }, admin);
        expectRefused(answer, expect.stringContaining(msg));
        expect(await rowCount(ctx(), 'notifyChannel')).toBe(before);
      });

      it('refuses a duplicate name with a 409', async () => {
        expect(
          await ctx().call('/monitor/channel/creation', { name: '钉钉-总台', type: 'webhook', config: { url: 'https://example.com/h' }, state: 1, remark: '' }, admin),
        ).toEqual({
          code: 409,
          msg: '渠道名称已存在',
          data: null,
        });
      });
    });

    describe('测试发送', () => {
      it('answers the vendor’s status and body and our reading', async () => {
        const channel = (await ctx().database.db.selectFrom('notifyChannel').select('id').where('name', '=', '钉钉-总台').executeTakeFirstOrThrow()).id;
        const answer = await ctx().call('/monitor/channel/test', { id: channel }, admin);
        expect(answer).toEqual({
          code: 200,
          msg: '测试消息已发送',
          data: { messageId: expect.any(Number), verdict: 'sent', status: 200, answer: '{"errcode":0,"errmsg":"ok"}', reason: '' },
        });
        const [got] = receiver.of('dingtalk', TOKEN);
        expect((got.body.markdown as { title: string }).title).toBe('测试消息：钉钉-总台');
        expect(await ctx().database.db.selectFrom('notifyMessage').selectAll().where('id', '=', answer.data.messageId).executeTakeFirst()).toMatchObject({
          kind: 'test',
          state: 'sent',
          attempts: 1,
        });
        expect(await channelRow(ctx(), channel)).toMatchObject({ health: 'ok' });
      });

      it('answers a refusal with the vendor’s body and marks the channel unhealthy', async () => {
        const wrong = await createChannel(ctx(), admin, { name: '钉钉-错密钥', type: 'dingtalk', config: { url: dingUrl, secret: 'SEC-wrong' } });
        const answer = await ctx().call('/monitor/channel/test', { id: wrong.id }, admin);
        expect(answer).toMatchObject({
          code: 200,
          msg: '渠道拒绝了测试消息：钉钉拒绝（errcode 310000）：sign not match（加签密钥、自定义关键词或 IP 白名单不符）',
          data: { verdict: 'refused', status: 200, answer: '{"errcode":310000,"errmsg":"sign not match"}' },
        });
        expect(await channelRow(ctx(), wrong.id)).toMatchObject({ health: 'unhealthy', healthReason: expect.stringContaining('sign not match') });
      });

      it('answers a 5xx as it came, without retrying a test', async () => {
        const hook = await createChannel(ctx(), admin, { name: 'Webhook-测试故障', type: 'webhook', config: { url: receiver.webhook('test-500', { behaviour: 'fail' }) } });
        expect(await ctx().call('/monitor/channel/test', { id: hook.id }, admin)).toMatchObject({
          code: 200,
          msg: '测试消息发送失败：对方暂时不可用（HTTP 500）',
          data: { verdict: 'retry', status: 500, answer: '{"error":"internal error"}' },
        });
        expect(receiver.of('webhook', 'test-500')).toHaveLength(1);
      });

      it('answers a refused target without connecting, and a missing channel with a 404', async () => {
        const metadata = await createChannel(ctx(), admin, { name: 'Webhook-元数据', type: 'webhook', config: { url: 'http://169.254.169.254/latest/meta-data/' } });
        expect(await ctx().call('/monitor/channel/test', { id: metadata.id }, admin)).toMatchObject({
          code: 200,
          data: { verdict: 'refused', status: null, answer: '', reason: '不允许连接目标地址 169.254.169.254：链路本地地址（169.254.0.0/16，含云服务器元数据）' },
        });
        expect(await ctx().call('/monitor/channel/test', { id: 999_999 }, admin)).toEqual({ code: 404, msg: '通知渠道不存在', data: null });
      });
    });

    describe('通知记录', () => {
      let hookId: number;
      beforeAll(async () => {
        const clock = new TestClock(Date.now());
        hookId = (await createChannel(ctx(), admin, { name: 'Webhook-记录', type: 'webhook', config: { url: receiver.webhook('records') } })).id;
        await enqueue(
          ctx(),
          [1, 2, 3].map((n) => alarmMessage(hookId, 900 + n)),
          clock,
        );
        await ctx().database.db.updateTable('notifyMessage').set({ state: 'failed', lastError: '对方拒绝（HTTP 403）', attempts: 1 }).where('alarmId', '=', 1902).execute();
      });

      it('lists messages newest first with their channel, filtered by channel and state', async () => {
        const page = expectOk(await ctx().call('/monitor/message/inquire', { size: 20, current: 1, params: { channelId: hookId } }, admin));
        expect(page).toMatchObject({ total: 3, totalIsLowerBound: false });
        expect(page.records.map((r) => r.alarmId)).toEqual([1903, 1902, 1901]);
        expect(page.records[0]).toMatchObject({ channelName: 'Webhook-记录', channelType: 'webhook', kind: 'raise', state: 'queued', attempts: 0, digestCount: 0 });
        const failed = expectOk(await ctx().call('/monitor/message/inquire', { size: 20, current: 1, params: { channelId: hookId, state: 'failed' } }, admin));
        expect(failed.records.map((r) => [r.alarmId, r.lastError])).toEqual([[1902, '对方拒绝（HTTP 403）']]);
        expect(expectOk(await ctx().call('/monitor/message/inquire', { size: 20, current: 1, params: { alarmId: 1901 } }, admin)).total).toBe(1);
      });

      it('exports the filtered list with labels', async () => {
        const { rows, disposition } = await download(ctx(), '/monitor/message/export', { params: { channelId: hookId } }, admin);
        expect(decodeURIComponent(disposition)).toContain('通知记录-');
        expect(rows[0]).toEqual([
          '编号',
          '创建时间',
          '渠道',
          '渠道类型',
          '消息类型',
          '告警编号',
          '标题',
          '状态',
          '尝试次数',
          '厂商状态码',
          '厂商应答',
          '最后错误',
          '发送时间',
          '合并到',
        ]);
        expect(rows.slice(1).map((row) => [row[2], row[3], row[4], row[5], row[7]])).toEqual([
          ['Webhook-记录', 'Webhook', '告警产生', 1903, '排队中'],
          ['Webhook-记录', 'Webhook', '告警产生', 1902, '发送失败'],
          ['Webhook-记录', 'Webhook', '告警产生', 1901, '排队中'],
        ]);
      });

      it('resends failed messages only: unknown ids 404, none failed 409', async () => {
        const ids = (await ctx().database.db.selectFrom('notifyMessage').select(['id', 'alarmId']).where('channelId', '=', hookId).orderBy('id').execute()).map((r) => r.id);
        expect(await ctx().call('/monitor/message/resend', { ids: [999_999] }, admin)).toEqual({ code: 404, msg: '通知记录不存在', data: null });
        expect(await ctx().call('/monitor/message/resend', { ids: [ids[0]] }, admin)).toEqual({ code: 409, msg: '只有发送失败的消息可以重发', data: null });
        expect(await ctx().call('/monitor/message/resend', { ids }, admin)).toEqual({ code: 200, msg: '已重新排队 1 条消息', data: { count: 1 } });
        const message = (id: number) => ctx().database.db.selectFrom('notifyMessage').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        expect(await message(ids[1])).toMatchObject({ state: 'queued', attempts: 0, lastError: '' });
        // The operation log names the first message of the call.
        const record = await ctx()
          .database.db.selectFrom('sysOperationLog')
          .selectAll()
          .where('path', '=', '/monitor/message/resend')
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        expect(record).toMatchObject({ action: '重发通知', targetType: 'message', targetId: String(ids[0]), targetLabel: `Webhook-记录：${(await message(ids[0])).title}` });
      });
    });
  },
  notifySettings(),
);

describe('masked webhook addresses', () => {
  it.each([
    ['https://oapi.dingtalk.com/robot/send?access_token=a1b2c3d4e5f6a7b8c9d0', 'https://oapi.dingtalk.com/robot/send?access_token=******c9d0'],
    ['https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa', 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=******5aaa'],
    ['https://open.feishu.cn/open-apis/bot/v2/hook/8f3c2a5e-1b2c-4d5e-9f00-1234567890ab', 'https://open.feishu.cn/open-apis/bot/v2/hook/******90ab'],
    ['http://10.0.0.5:8080/alarms', 'http://10.0.0.5:8080/alarms'],
  ])('%s reads %s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });
});
