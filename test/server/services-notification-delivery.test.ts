/**
 * Issue 28: delivery against real local receivers (test/server/support/vendor-receiver.ts and a real
 * SMTP server), on both databases. Each vendor's format and signature as its receiver checks them,
 * and its answers read right: sent, throttled, refused for good (the channel unhealthy, saying
 * why), failed for now (retried with backoff, then a dead letter in the audit trail, resendable).
 * Throttling: 60 alarms in a minute to a DingTalk robot send at most 20 messages, the rest in a
 * digest, none lost. The worker runs on a clock the test moves, and so does the receiver.
 */
import { describeOnEachDatabase } from './support/harness';
import { expectOk } from './support/sys-fixtures';
import { VendorReceiver } from './support/vendor-receiver';
import { SmtpReceiver } from './support/smtp-receiver';
import { alarmMessage, channelRow, CONSOLE_URL, createChannel, enqueue, messagesOf, notifySettings, TestClock, testWorker } from './support/notify-fixtures';
import type { NotificationWorker } from '../../src/server/services/notification/worker';
import { claimDue, markSent } from '../../src/server/services/notification/outbox';
import { webhook } from '../../src/server/services/notification/vendors/webhook';

const MINUTE = 60_000;
const SMTP_USER = 'alarm@hotel.example.com';
const SMTP_PASSWORD = 'smtp-Passw0rd-9';

describeOnEachDatabase(
  'notification delivery',
  (ctx) => {
    let admin: string;
    let clock: TestClock;
    let receiver: VendorReceiver;
    let smtp: SmtpReceiver;
    let worker: NotificationWorker;

    beforeAll(async () => {
      admin = await ctx().login();
      clock = new TestClock();
      receiver = await VendorReceiver.start(clock.now);
      smtp = await SmtpReceiver.start({ user: SMTP_USER, password: SMTP_PASSWORD });
      worker = testWorker(ctx(), clock);
    });
    afterAll(async () => {
      await receiver.close();
      await smtp.close();
    });

    const deadLetterRecords = (id: number) =>
      ctx().database.db.selectFrom('sysOperationLog').selectAll().where('action', '=', '通知发送失败').where('targetId', '=', String(id)).execute();

    describe('DingTalk', () => {
      it('sends a signed markdown message with the console link; the receiver checks the signature', async () => {
        const url = receiver.dingtalk('ding-ok', { secret: 'SEC-ding-signing-secret' });
        const channel = await createChannel(ctx(), admin, { name: '钉钉-工程部', type: 'dingtalk', config: { url, secret: 'SEC-ding-signing-secret' } });
        await enqueue(ctx(), [alarmMessage(channel.id, 1)], clock);
        expect(await worker.drain()).toBe(1);

        const [got] = receiver.of('dingtalk', 'ding-ok');
        expect(got.accepted).toBe(true);
        expect(got.query.get('timestamp')).toBe(String(clock.now()));
        expect(got.body).toEqual({
          msgtype: 'markdown',
          markdown: {
            title: '【严重】设备离线：客房 1201 门锁',
            text: `#### 【严重】设备离线：客房 1201 门锁\n\n- 设备：客房 1201 门锁（LOCK-1）\n- 位置：1 号楼 / 12 层 / 1201\n- 时间：2025-01-06 10:00:00\n\n[查看详情](${CONSOLE_URL}/hotel/alarm?id=1001)`,
          },
        });
        const [message] = await messagesOf(ctx(), channel.id);
        expect(message).toMatchObject({ state: 'sent', attempts: 1, vendorStatus: 200, vendorAnswer: '{"errcode":0,"errmsg":"ok"}', lastError: '', sentAt: clock.now() });
        expect(await channelRow(ctx(), channel.id)).toMatchObject({ health: 'ok', healthReason: '' });
      });

      it('reads a signature refusal as refused for good: a dead letter, the channel unhealthy with the reason', async () => {
        const url = receiver.dingtalk('ding-signed', { secret: 'SEC-the-right-one' });
        const channel = await createChannel(ctx(), admin, { name: '钉钉-错密钥', type: 'dingtalk', config: { url, secret: 'SEC-a-wrong-one' } });
        await enqueue(ctx(), [alarmMessage(channel.id, 2)], clock);
        await worker.drain();

        const [message] = await messagesOf(ctx(), channel.id);
        expect(message).toMatchObject({ state: 'failed', attempts: 1, vendorAnswer: '{"errcode":310000,"errmsg":"sign not match"}' });
        expect(message.lastError).toBe('钉钉拒绝（errcode 310000）：sign not match（加签密钥、自定义关键词或 IP 白名单不符）');
        expect(await channelRow(ctx(), channel.id)).toMatchObject({ health: 'unhealthy', healthReason: message.lastError });
        const [record] = await deadLetterRecords(message.id);
        expect(record).toMatchObject({
          operatorType: 'system',
          operatorName: '系统',
          module: '通知记录',
          targetType: 'message',
          targetLabel: `钉钉-错密钥：${message.title}`,
          outcome: 'failed',
        });
        expect(record.msg).toContain('sign not match');
      });

      it('60 alarms in a minute: at most 20 messages reach the robot in any minute, the rest in one digest, none lost', async () => {
        const url = receiver.dingtalk('ding-storm');
        const channel = await createChannel(ctx(), admin, { name: '钉钉-告警风暴', type: 'dingtalk', config: { url } });
        const start = clock.now();
        for (let n = 0; n < 60; n += 1) {
          await enqueue(ctx(), [alarmMessage(channel.id, 100 + n)], clock);
          await worker.drain();
          clock.advance(1000);
        }
        clock.advance(MINUTE);
        await worker.drain();

        const got = receiver.of('dingtalk', 'ding-storm');
        expect(got.every((r) => r.accepted)).toBe(true);
        for (const r of got) expect(got.filter((other) => other.at > r.at - MINUTE && other.at <= r.at).length).toBeLessThanOrEqual(20);
        expect(got.filter((r) => r.at < start + MINUTE)).toHaveLength(20);
        expect(got).toHaveLength(21);

        const messages = await messagesOf(ctx(), channel.id);
        const digests = messages.filter((m) => m.kind === 'digest');
        expect(digests).toHaveLength(1);
        const [digest] = digests;
        expect(digest).toMatchObject({ state: 'sent' });
        const alarms = messages.filter((m) => m.kind === 'raise');
        expect(alarms).toHaveLength(60);
        expect(alarms.filter((m) => m.state === 'sent')).toHaveLength(20);
        expect(alarms.filter((m) => m.state === 'digested' && m.digestId === digest.id)).toHaveLength(40);
        const markdown = got[20].body.markdown as { title: string; text: string };
        expect(markdown.title).toMatch(/^40 条告警：【严重】设备离线：客房 1320 门锁；/);
        expect(markdown.text).toContain('……另有 35 条，详见通知记录');
        expect(markdown.text).toContain(`${CONSOLE_URL}/monitor/message?digestId=${digest.id}`);
      });

      it('honours the robot’s own refusal (130101): the waiting messages wait out its 10 minutes in a digest', async () => {
        const url = receiver.dingtalk('ding-busy');
        // Another sender spent the robot's minute.
        for (let n = 0; n < 21; n += 1) await fetch(url, { method: 'POST', body: JSON.stringify({ msgtype: 'text', text: { content: 'x' } }) });
        const channel = await createChannel(ctx(), admin, { name: '钉钉-被限流', type: 'dingtalk', config: { url } });
        await enqueue(
          ctx(),
          [1, 2, 3].map((n) => alarmMessage(channel.id, 200 + n)),
          clock,
        );
        await worker.drain();

        let messages = await messagesOf(ctx(), channel.id);
        expect(messages.find((m) => m.alarmId === 1201)).toMatchObject({ state: 'digested', attempts: 1 });
        expect(messages.find((m) => m.alarmId === 1201)!.lastError).toContain('钉钉限流');
        const digest = messages.find((m) => m.kind === 'digest')!;
        expect(digest).toMatchObject({ state: 'queued', nextAttemptAt: clock.now() + 10 * MINUTE });
        expect(messages.filter((m) => m.state === 'digested')).toHaveLength(3);

        const ours = () => receiver.of('dingtalk', 'ding-busy').filter((r) => r.body.msgtype === 'markdown');
        expect(ours()).toHaveLength(1);
        clock.advance(5 * MINUTE);
        await worker.drain();
        expect(ours()).toHaveLength(1);
        clock.advance(5 * MINUTE);
        await worker.drain();
        messages = await messagesOf(ctx(), channel.id);
        expect(messages.find((m) => m.kind === 'digest')).toMatchObject({ state: 'sent' });
        expect(ours().map((r) => r.accepted)).toEqual([false, true]);
      });
    });

    describe('WeCom', () => {
      it('sends markdown content, and reads an invalid key as refused', async () => {
        const url = receiver.wecom('wecom-key-1');
        const channel = await createChannel(ctx(), admin, { name: '企业微信-前台', type: 'wecom', config: { url } });
        await enqueue(ctx(), [alarmMessage(channel.id, 300)], clock);
        await worker.drain();
        const [got] = receiver.of('wecom', 'wecom-key-1');
        expect(got.body).toEqual({
          msgtype: 'markdown',
          markdown: {
            content: `**【严重】设备离线：客房 1500 门锁**\n- 设备：客房 1500 门锁（LOCK-300）\n- 位置：1 号楼 / 12 层 / 1500\n- 时间：2025-01-06 10:00:00\n\n[查看详情](${CONSOLE_URL}/hotel/alarm?id=1300)`,
          },
        });
        expect((await messagesOf(ctx(), channel.id))[0]).toMatchObject({ state: 'sent' });

        const wrong = await createChannel(ctx(), admin, { name: '企业微信-错地址', type: 'wecom', config: { url: `${receiver.base}/wecom/webhook/send?key=unknown` } });
        await enqueue(ctx(), [alarmMessage(wrong.id, 301)], clock);
        await worker.drain();
        expect((await messagesOf(ctx(), wrong.id))[0]).toMatchObject({ state: 'failed' });
        expect(await channelRow(ctx(), wrong.id)).toMatchObject({ health: 'unhealthy', healthReason: expect.stringContaining('errcode 93000') });
      });

      it('reads 45009 as throttled', async () => {
        const url = receiver.wecom('wecom-busy');
        for (let n = 0; n < 20; n += 1) await fetch(url, { method: 'POST', body: '{}' });
        const channel = await createChannel(ctx(), admin, { name: '企业微信-被限流', type: 'wecom', config: { url } });
        await enqueue(ctx(), [alarmMessage(channel.id, 310)], clock);
        await worker.drain();
        const messages = await messagesOf(ctx(), channel.id);
        expect(messages[0]).toMatchObject({ state: 'digested', vendorAnswer: '{"errcode":45009,"errmsg":"api freq out of limit"}' });
        expect(messages.find((m) => m.kind === 'digest')).toMatchObject({ state: 'queued', nextAttemptAt: clock.now() + MINUTE });
      });
    });

    describe('Feishu', () => {
      it('sends a signed interactive card; the receiver checks the signature', async () => {
        const url = receiver.feishu('feishu-ok', { secret: 'feishu-signing-secret' });
        const channel = await createChannel(ctx(), admin, { name: '飞书-值班群', type: 'feishu', config: { url, secret: 'feishu-signing-secret' } });
        await enqueue(ctx(), [alarmMessage(channel.id, 400, { kind: 'clear', title: '【已恢复】客房 1600 门锁恢复在线' })], clock);
        await worker.drain();
        const [got] = receiver.of('feishu', 'feishu-ok');
        expect(got.accepted).toBe(true);
        expect(got.body).toMatchObject({
          timestamp: String(Math.floor(clock.now() / 1000)),
          msg_type: 'interactive',
          card: {
            header: { title: { tag: 'plain_text', content: '【已恢复】客房 1600 门锁恢复在线' }, template: 'green' },
            elements: [
              { tag: 'markdown', content: expect.stringContaining('LOCK-400') },
              { tag: 'action', actions: [{ tag: 'button', url: `${CONSOLE_URL}/hotel/alarm?id=1400` }] },
            ],
          },
        });
        expect((await messagesOf(ctx(), channel.id))[0]).toMatchObject({ state: 'sent', vendorAnswer: '{"code":0,"msg":"success","data":{}}' });
      });

      it('reads a wrong signature (19021) as refused, the channel unhealthy', async () => {
        const url = receiver.feishu('feishu-signed', { secret: 'the-right-secret' });
        const channel = await createChannel(ctx(), admin, { name: '飞书-错密钥', type: 'feishu', config: { url, secret: 'a-wrong-secret' } });
        await enqueue(ctx(), [alarmMessage(channel.id, 410)], clock);
        await worker.drain();
        expect((await messagesOf(ctx(), channel.id))[0]).toMatchObject({ state: 'failed' });
        expect((await channelRow(ctx(), channel.id)).healthReason).toMatch(/^飞书拒绝（code 19021）：sign match fail.*（签名不符或时间戳相差超过 1 小时）$/);
      });

      it('keeps to 5 a second and a body within 20 KB', async () => {
        const url = receiver.feishu('feishu-burst');
        const channel = await createChannel(ctx(), admin, { name: '飞书-突发', type: 'feishu', config: { url } });
        await enqueue(ctx(), [alarmMessage(channel.id, 420, { body: '长'.repeat(30_000) }), ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => alarmMessage(channel.id, 420 + n))], clock);
        await worker.drain();
        const got = receiver.of('feishu', 'feishu-burst');
        expect(got).toHaveLength(5);
        expect(got.every((r) => r.accepted)).toBe(true);
        expect(Buffer.byteLength(got[0].raw)).toBeLessThanOrEqual(20_000);
        clock.advance(1000);
        await worker.drain();
        expect(receiver.of('feishu', 'feishu-burst')).toHaveLength(6);
        expect((await messagesOf(ctx(), channel.id)).filter((m) => m.state === 'digested')).toHaveLength(5);
      });
    });

    describe('webhook', () => {
      it('sends the alarm as a JSON document with a signature header the receiver checks', async () => {
        const url = receiver.webhook('hook-ok', { secret: 'hook-hmac-secret' });
        const channel = await createChannel(ctx(), admin, { name: 'Webhook-集成商', type: 'webhook', config: { url, secret: 'hook-hmac-secret' } });
        await enqueue(ctx(), [alarmMessage(channel.id, 500)], clock);
        await worker.drain();
        const [got] = receiver.of('webhook', 'hook-ok');
        const [message] = await messagesOf(ctx(), channel.id);
        expect(got.accepted).toBe(true);
        expect(got.headers['x-hotel-message-id']).toBe(String(message.id));
        expect(got.body).toEqual({
          id: message.id,
          kind: 'raise',
          title: '【严重】设备离线：客房 1700 门锁',
          text: expect.stringContaining('LOCK-500'),
          link: `${CONSOLE_URL}/hotel/alarm?id=1500`,
          alarmId: 1500,
          alarm: { id: 1500, type: 'offline', severity: 'critical', deviceSn: 'LOCK-500' },
          channel: 'Webhook-集成商',
          createdAt: clock.now(),
          sentAt: clock.now(),
        });
        expect(message).toMatchObject({ state: 'sent', vendorStatus: 200, vendorAnswer: '{"ok":true}' });
      });

      it('retries a 5xx with growing backoff, then makes a dead letter (audited) that resend delivers later', async () => {
        const url = receiver.webhook('hook-down', { behaviour: 'fail' });
        const channel = await createChannel(ctx(), admin, { name: 'Webhook-故障', type: 'webhook', config: { url, maxAttempts: 3 } });
        await enqueue(ctx(), [alarmMessage(channel.id, 510)], clock);
        const waits: number[] = [];
        for (let attempt = 1; attempt <= 3; attempt += 1) {
          await worker.drain();
          const [message] = await messagesOf(ctx(), channel.id);
          expect(message.attempts).toBe(attempt);
          if (attempt < 3) {
            expect(message).toMatchObject({ state: 'queued', vendorStatus: 500, lastError: '对方暂时不可用（HTTP 500）' });
            const wait = message.nextAttemptAt - clock.now();
            // Full jitter: anywhere up to the attempt's ceiling (10 s, 20 s, ...).
            expect(wait).toBeGreaterThanOrEqual(0);
            expect(wait).toBeLessThan(10_000 * 2 ** (attempt - 1));
            waits.push(wait);
            // Not before its time.
            if (wait > 0) {
              await worker.drain();
              expect(receiver.of('webhook', 'hook-down')).toHaveLength(attempt);
            }
            clock.advance(wait);
          }
        }
        const [dead] = await messagesOf(ctx(), channel.id);
        expect(dead).toMatchObject({ state: 'failed', attempts: 3, lastError: '对方暂时不可用（HTTP 500）' });
        expect(receiver.of('webhook', 'hook-down')).toHaveLength(3);
        expect(await deadLetterRecords(dead.id)).toHaveLength(1);
        expect(expectOk(await ctx().call('/monitor/channel/inquire', { size: 20, current: 1, params: { name: 'Webhook-故障' } }, admin)).records[0]).toMatchObject({
          failedCount: 1,
        });

        receiver.behave('hook-down', 'ok');
        expect(await ctx().call('/monitor/message/resend', { ids: [dead.id] }, admin)).toEqual({ code: 200, msg: '已重新排队 1 条消息', data: { count: 1 } });
        // The resend is due at once on the server's clock.
        clock.advance(Math.max(0, Date.now() - clock.now()));
        await worker.drain();
        expect((await messagesOf(ctx(), channel.id))[0]).toMatchObject({ state: 'sent', attempts: 1, lastError: '' });
        expect(expectOk(await ctx().call('/monitor/channel/inquire', { size: 20, current: 1, params: { name: 'Webhook-故障' } }, admin)).records[0]).toMatchObject({
          failedCount: 0,
          health: 'ok',
        });
      });

      it('gives the rest of a failing channel’s round back untried: one failed call per round', async () => {
        const url = receiver.webhook('hook-flaky', { behaviour: 'fail' });
        const channel = await createChannel(ctx(), admin, { name: 'Webhook-批量', type: 'webhook', config: { url } });
        await enqueue(
          ctx(),
          [1, 2, 3, 4].map((n) => alarmMessage(channel.id, 520 + n)),
          clock,
        );
        await worker.drain();
        expect(receiver.of('webhook', 'hook-flaky')).toHaveLength(1);
        const messages = await messagesOf(ctx(), channel.id);
        expect(messages.map((m) => [m.state, m.attempts])).toEqual([
          ['queued', 1],
          ['queued', 0],
          ['queued', 0],
          ['queued', 0],
        ]);
        expect(new Set(messages.map((m) => m.nextAttemptAt)).size).toBe(1);
      });

      it('refuses to follow a redirect and reads a 4xx as refused', async () => {
        const url = receiver.webhook('hook-moved', { behaviour: 'redirect' });
        const channel = await createChannel(ctx(), admin, { name: 'Webhook-重定向', type: 'webhook', config: { url } });
        await enqueue(ctx(), [alarmMessage(channel.id, 530)], clock);
        await worker.drain();
        expect((await messagesOf(ctx(), channel.id))[0]).toMatchObject({
          state: 'failed',
          vendorStatus: 302,
          lastError: '对方返回重定向（HTTP 302，指向 http://169.254.169.254/latest/meta-data/），不跟随重定向',
        });
        expect(receiver.of('webhook', 'hook-moved')).toHaveLength(1);
      });

      it('reads a 429 as throttled and waits its Retry-After', async () => {
        const url = receiver.webhook('hook-429', { behaviour: 'throttle' });
        const channel = await createChannel(ctx(), admin, { name: 'Webhook-限流', type: 'webhook', config: { url } });
        await enqueue(ctx(), [alarmMessage(channel.id, 540)], clock);
        await worker.drain();
        const messages = await messagesOf(ctx(), channel.id);
        expect(messages.find((m) => m.kind === 'digest')).toMatchObject({ state: 'queued', nextAttemptAt: clock.now() + 30_000 });
        receiver.behave('hook-429', 'ok');
        clock.advance(29_000);
        await worker.drain();
        expect(receiver.of('webhook', 'hook-429')).toHaveLength(1);
        clock.advance(1_000);
        await worker.drain();
        expect(receiver.of('webhook', 'hook-429').filter((r) => r.accepted)).toHaveLength(1);
      });
    });

    describe('e-mail', () => {
      it('reaches the SMTP server with the title as subject and the body and link as text', async () => {
        const channel = await createChannel(ctx(), admin, {
          name: '邮件-经理',
          type: 'email',
          config: {
            host: '127.0.0.1',
            port: smtp.port,
            security: 'none',
            user: SMTP_USER,
            password: SMTP_PASSWORD,
            from: SMTP_USER,
            to: ['manager@hotel.example.com', 'duty@hotel.example.com'],
          },
        });
        await enqueue(ctx(), [alarmMessage(channel.id, 600)], clock);
        await worker.drain();
        const mail = smtp.mails.at(-1)!;
        expect(mail).toMatchObject({ from: SMTP_USER, to: ['manager@hotel.example.com', 'duty@hotel.example.com'], subject: '【严重】设备离线：客房 1800 门锁' });
        expect(mail.text).toBe(`- 设备：客房 1800 门锁（LOCK-600）\n- 位置：1 号楼 / 12 层 / 1800\n- 时间：2025-01-06 10:00:00\n\n查看详情：${CONSOLE_URL}/hotel/alarm?id=1600`);
        const [message] = await messagesOf(ctx(), channel.id);
        expect(message).toMatchObject({ state: 'sent', vendorStatus: 250 });
      });

      it('reads bad credentials (535) as refused, the channel unhealthy', async () => {
        const channel = await createChannel(ctx(), admin, {
          name: '邮件-错密码',
          type: 'email',
          config: { host: '127.0.0.1', port: smtp.port, security: 'none', user: SMTP_USER, password: 'wrong-password', from: SMTP_USER, to: ['manager@hotel.example.com'] },
        });
        const before = smtp.mails.length;
        await enqueue(ctx(), [alarmMessage(channel.id, 610)], clock);
        await worker.drain();
        expect((await messagesOf(ctx(), channel.id))[0]).toMatchObject({ state: 'failed', vendorStatus: 535 });
        expect((await channelRow(ctx(), channel.id)).healthReason).toMatch(/^邮件服务器拒绝：535/);
        expect(smtp.mails).toHaveLength(before);
      });
    });

    it.each([
      ['dingtalk', (token: string) => receiver.dingtalk(token)],
      ['wecom', (token: string) => receiver.wecom(token)],
      ['feishu', (token: string) => receiver.feishu(token)],
    ] as const)('%s: a 5xx from the vendor is tried again later, and then sent', async (vendor, robot) => {
      const token = `${vendor}-outage`;
      const url = robot(token);
      receiver.outage(vendor, token, true);
      const channel = await createChannel(ctx(), admin, { name: `${vendor}-故障`, type: vendor, config: { url } });
      await enqueue(ctx(), [alarmMessage(channel.id, 800)], clock);
      await worker.drain();
      const [waiting] = await messagesOf(ctx(), channel.id);
      expect(waiting).toMatchObject({ state: 'queued', attempts: 1, vendorStatus: 502, lastError: '对方暂时不可用（HTTP 502）' });
      expect((await channelRow(ctx(), channel.id)).health).toBe('unknown');
      receiver.outage(vendor, token, false);
      clock.advance(waiting.nextAttemptAt - clock.now());
      await worker.drain();
      expect((await messagesOf(ctx(), channel.id))[0]).toMatchObject({ state: 'sent', attempts: 2 });
      expect(receiver.of(vendor, token).map((r) => r.accepted)).toEqual([false, true]);
    });

    it('feishu: reads the bot’s frequency limit (11232) as throttled', async () => {
      const url = receiver.feishu('feishu-busy');
      for (let n = 0; n < 5; n += 1) await fetch(url, { method: 'POST', body: '{}' });
      const channel = await createChannel(ctx(), admin, { name: '飞书-被限流', type: 'feishu', config: { url } });
      await enqueue(ctx(), [alarmMessage(channel.id, 810)], clock);
      await worker.drain();
      const messages = await messagesOf(ctx(), channel.id);
      expect(messages[0]).toMatchObject({ state: 'digested', lastError: expect.stringMatching(/^飞书限流：frequency limited/) });
      expect(messages.find((m) => m.kind === 'digest')).toMatchObject({ state: 'queued', nextAttemptAt: clock.now() + MINUTE });
    });

    it('e-mail: a 4xx reply is tried again later', async () => {
      const channel = await createChannel(ctx(), admin, {
        name: '邮件-暂时拒收',
        type: 'email',
        config: { host: '127.0.0.1', port: smtp.port, security: 'none', user: SMTP_USER, password: SMTP_PASSWORD, from: SMTP_USER, to: ['duty@hotel.example.com'] },
      });
      smtp.refuseNext = { code: 451, count: 1 };
      await enqueue(ctx(), [alarmMessage(channel.id, 820)], clock);
      await worker.drain();
      const [waiting] = await messagesOf(ctx(), channel.id);
      expect(waiting).toMatchObject({ state: 'queued', attempts: 1, vendorStatus: 451 });
      expect(waiting.lastError).toMatch(/^邮件服务器拒绝：451/);
      clock.advance(waiting.nextAttemptAt - clock.now());
      await worker.drain();
      expect((await messagesOf(ctx(), channel.id))[0]).toMatchObject({ state: 'sent', attempts: 2 });
    });

    it('fails the messages of a disabled channel as dead letters without sending them', async () => {
      const url = receiver.webhook('hook-off');
      const channel = await createChannel(ctx(), admin, { name: 'Webhook-停用', type: 'webhook', config: { url }, state: 0 });
      await enqueue(ctx(), [alarmMessage(channel.id, 700)], clock);
      await worker.drain();
      expect((await messagesOf(ctx(), channel.id))[0]).toMatchObject({ state: 'failed', attempts: 0, lastError: '渠道已停用，未发送' });
      expect(receiver.of('webhook', 'hook-off')).toHaveLength(0);
    });

    it('stops with the round under way: the backlog behind it stays queued, not sent at full speed before a shutdown', async () => {
      const url = receiver.webhook('hook-stop', { behaviour: 'slow', slowMs: 10 });
      const channel = await createChannel(ctx(), admin, { name: 'Webhook-停止', type: 'webhook', config: { url } });
      await enqueue(
        ctx(),
        Array.from({ length: 120 }, (_, n) => alarmMessage(channel.id, 900 + n)),
        clock,
      );
      const running = testWorker(ctx(), clock, 'test-stop');
      running.start();
      while (receiver.of('webhook', 'hook-stop').length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      await running.stop();
      const messages = await messagesOf(ctx(), channel.id);
      const sent = messages.filter((m) => m.state === 'sent');
      // One claim's worth (the round under way) went out; the other 70 were never claimed.
      expect(sent).toHaveLength(50);
      expect(receiver.of('webhook', 'hook-stop')).toHaveLength(50);
      expect(messages.filter((m) => m.state !== 'sent' && m.claimedBy === null)).toHaveLength(70);
      // The rest is still there for whoever delivers next (and leaves the queue empty for the tests after).
      expect(await running.drain()).toBe(70);
      expect(receiver.of('webhook', 'hook-stop')).toHaveLength(120);
    });

    it('marks the sent messages of a round together, each with its own answer and time, and only while this instance still holds its claim', async () => {
      const url = receiver.webhook('hook-marks');
      const channel = await createChannel(ctx(), admin, { name: 'Webhook-批量标记', type: 'webhook', config: { url } });
      await enqueue(ctx(), [alarmMessage(channel.id, 801), alarmMessage(channel.id, 802), alarmMessage(channel.id, 803)], clock);
      const { db, dialect } = ctx().database;
      const [first, second, third] = await claimDue(db, dialect, 'instance-a', clock.now(), 120_000, 10);
      // The third's claim lapsed and another instance took it meanwhile.
      await db.updateTable('notifyMessage').set({ claimedBy: 'instance-b' }).where('id', '=', third.id).execute();
      const answer = (status: number, at: number) => ({ message: first, delivery: { verdict: 'sent' as const, status, answer: `ok ${status}`, reason: '' }, at });
      await markSent(db, dialect, 'instance-a', [answer(200, 1_000), { ...answer(202, 2_000), message: second }, { ...answer(200, 3_000), message: third }]);
      const [one, two, three] = await messagesOf(ctx(), channel.id);
      expect(one).toMatchObject({ state: 'sent', attempts: 1, vendorStatus: 200, vendorAnswer: 'ok 200', sentAt: 1_000 });
      expect(two).toMatchObject({ state: 'sent', attempts: 1, vendorStatus: 202, vendorAnswer: 'ok 202', sentAt: 2_000 });
      expect(three).toMatchObject({ state: 'sending', claimedBy: 'instance-b', attempts: 0, sentAt: null });
    });

    it('a round that fails after sending reports its own error, and a failed marking of what it sent beside it', async () => {
      const channel = await createChannel(ctx(), admin, { name: 'Webhook-中断', type: 'webhook', config: { url: receiver.webhook('hook-broken') } });
      await enqueue(ctx(), [alarmMessage(channel.id, 811), alarmMessage(channel.id, 812)], clock);
      const { db } = ctx().database;
      // The second delivery breaks off the round; the statement that then marks the first as sent
      // fails too.
      let broken = false;
      const deliver = webhook.deliver.bind(webhook);
      const delivering = jest
        .spyOn(webhook, 'deliver')
        .mockImplementationOnce(deliver)
        .mockImplementationOnce(() => {
          broken = true;
          return Promise.reject(new Error('投递中断'));
        });
      const executor = db.getExecutor();
      const execute = executor.executeQuery.bind(executor);
      const marking = jest.spyOn(executor, 'executeQuery').mockImplementation((query) => {
        if (!broken || !/set state = 'sent'/.test(query.sql)) return execute(query);
        broken = false;
        return Promise.reject(new Error('标记失败'));
      });
      const logged = jest.spyOn(ctx().app.log, 'error');
      try {
        await worker.round();
        const errorOf = (text: string) => (logged.mock.calls.find((call) => call[1] === text)?.[0] as { err?: Error } | undefined)?.err?.message;
        expect(errorOf('notification channel round failed')).toBe('投递中断');
        expect(errorOf('marking sent notification messages failed')).toBe('标记失败');
        // Neither is marked: the first goes out again once its claim lapses, the second is tried again.
        expect((await messagesOf(ctx(), channel.id)).map((m) => m.state)).toEqual(['sending', 'sending']);
      } finally {
        delivering.mockRestore();
        marking.mockRestore();
        logged.mockRestore();
      }
    });
  },
  notifySettings(),
);
