/**
 * Alarm notifications (issue 28), as the app holds them: the outbound client every call out goes
 * through, the delivery worker of this instance (started by main.ts with `startNotificationWorker`,
 * like the scheduler), and 测试发送. What queues messages is `enqueueNotifications` (outbox.ts),
 * called in the caller's own transaction; `wake()` after its commit sends them at once.
 * docs/api/monitor.md describes the whole.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { Database } from '../../db/schema';
import type { Dialect } from '../../db/dialect';
import type { NotifyConfig } from '../../config';
import type { Audit } from '../../plugins/app/audit';
import type { ChannelTestResult } from '../../../contract/monitor/channel';
import { formatTime } from '../../../contract/time';
import { invalid, notFound } from '../../lib/errors';
import { OutboundClient, type ResolvedAddress } from '../../lib/outbound/client';
import { CHANNEL_RULES } from './channel-config';
import { markFailed, markSent } from './outbox';
import { pauseSends, underChannelLock } from './rate-limit';
import { loadChannels, markHealthy, markUnhealthy, outgoingOf, permitFor } from './sending';
import { CLAIM_LEASE_MS, NotificationWorker } from './worker';
import type { Delivery } from './vendors';

/** An answer is read up to this many bytes (a vendor's JSON is a few hundred). */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface NotificationsDependencies {
  db: Kysely<Database>;
  dialect: Dialect;
  audit: Pick<Audit, 'operations' | 'moduleOf'>;
  log: FastifyBaseLogger;
  config: NotifyConfig;
  instanceId: string;
  /** A resolver of host names other than the system's (tests). */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
}

export type TestResult = Static<typeof ChannelTestResult>;

export class Notifications {
  readonly outbound: OutboundClient;
  readonly worker: NotificationWorker;

  constructor(private readonly deps: NotificationsDependencies) {
    this.outbound = new OutboundClient({
      allowPrivateTargets: deps.config.allowPrivateTargets,
      connectTimeoutMs: deps.config.connectTimeoutMs,
      totalTimeoutMs: deps.config.timeoutMs,
      maxAnswerBytes: MAX_ANSWER_BYTES,
      resolve: deps.resolve,
    });
    this.worker = new NotificationWorker({ ...deps, outbound: this.outbound });
  }

  /** Messages were queued and committed: send them now. */
  wake(): void {
    this.worker.wake();
  }

  /** Stops the worker (if it runs) and the outbound client: the app's close, before the database closes. */
  async stop(): Promise<void> {
    await this.worker.stop();
    this.outbound.close();
  }

  /**
   * 测试发送: a test message through the channel, now, through the same outbound client, rate
   * limit and vendor as every message, recorded as a message of kind test. It is not retried:
   * whoever asked sees the vendor's answer. Sends even on a disabled channel (to check it first).
   */
  async sendTest(channelId: number): Promise<TestResult> {
    const { db, dialect } = this.deps;
    const now = Date.now();
    const channel = (await loadChannels(db, [channelId])).get(channelId);
    if (!channel) throw notFound('通知渠道');
    if (!channel.vendor) throw invalid(`渠道类型 ${channel.type} 不受支持`);
    const label = CHANNEL_RULES[channel.type as keyof typeof CHANNEL_RULES].label;
    const message = await db
      .insertInto('notifyMessage')
      .values({
        channelId,
        alarmId: null,
        kind: 'test',
        title: `测试消息：${channel.name}`,
        body: `这是一条来自酒店后台管理系统的测试消息，收到即说明渠道配置正确。\n- 渠道：${channel.name}（${label}）\n- 发送时间：${formatTime(now)}`,
        state: 'sending',
        claimedBy: this.worker.claimer,
        nextAttemptAt: now + CLAIM_LEASE_MS,
        createdAt: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const result = (delivery: Delivery): TestResult => ({
      messageId: message.id,
      verdict: delivery.verdict,
      status: delivery.status,
      answer: delivery.answer,
      reason: delivery.reason,
    });

    const permit = await permitFor(db, dialect, channel, now);
    if (!permit.granted) {
      const reason = `渠道限流中，约 ${Math.ceil((permit.freeAt - now) / 1000)} 秒后才能发送`;
      await markFailed(db, message, this.worker.claimer, reason, null);
      return result({ verdict: 'throttled', status: null, answer: '', reason });
    }
    const delivery = await channel.vendor.deliver(await outgoingOf(db, message, channel, this.deps.config.consoleUrl), channel.settings, { outbound: this.outbound, now });
    const after = Date.now();
    if (delivery.verdict === 'sent') {
      await markSent(db, dialect, this.worker.claimer, [{ message, delivery, at: after }]);
      await markHealthy(db, channelId, after);
      return result(delivery);
    }
    if (delivery.verdict === 'throttled') await underChannelLock(db, dialect, channelId, (trx, state) => pauseSends(trx, channelId, state, after + (delivery.pauseMs ?? 0)));
    if (delivery.verdict === 'refused') await markUnhealthy(db, channelId, delivery.reason, after);
    await markFailed(db, message, this.worker.claimer, delivery.reason, delivery);
    return result(delivery);
  }
}

/** This instance's delivery worker, as main.ts runs it. */
export interface NotificationDelivery {
  /** Stops polling; resolves once the round under way has finished. */
  stop(): Promise<void>;
}

/**
 * Sends the outbox from this instance (main.ts, unless NOTIFY=off): woken in-process when messages
 * are queued, polling otherwise. The app's close stops it too, before the database closes.
 */
export function startNotificationWorker(app: FastifyInstance): NotificationDelivery {
  const { worker } = app.notifications;
  worker.start();
  return { stop: () => worker.stop() };
}

export { enqueueNotifications, type NotificationMessage } from './outbox';
