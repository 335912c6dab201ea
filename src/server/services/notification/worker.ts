/**
 * The delivery worker: in every instance (unless NOTIFY=off) it claims due messages of the outbox,
 * sends each through its channel's vendor, and writes the outcome. Woken in-process when messages
 * are queued, it polls otherwise (NOTIFY_POLL_MS), which is also how it learns of messages queued
 * by other instances and of retries coming due.
 *
 * Per channel, messages go in order; channels go side by side. A channel out of allowance (or
 * paused by its vendor) has its waiting messages merged into a digest (digest.ts). A failure for
 * now retries with exponential backoff and full jitter, up to the channel's attempts; the last
 * failure, or a refusal for good, makes a dead letter, recorded in the audit trail. A channel that
 * fails for now gives the rest of its round back untried, so a receiver that hangs costs one
 * timeout per round, not one per message.
 *
 * Each round first expands a chunk of the alarm events waiting as markers into messages
 * (alarm-events.ts), then takes the escalation steps that came due, then sends.
 *
 * Pacing: the worker shares its process with the API (above all the heartbeats). Working through
 * a backlog (a full claim or a full expansion: an alarm storm), it rests after each
 * round long enough that expanding and delivering take at most NOTIFY_DELIVERY_SHARE_PERCENT of
 * the time while the rest of the process is busy (their costs per alarm and per message are the
 * fastest of the last few full rounds: pacing.ts), so heartbeats keep their rate; when the process
 * was idle during the last rest, the next rest is only a short look (delivery then runs at full
 * speed). Nothing is dropped: the backlog waits in
 * the outbox, and the vendors' limits still merge what a throttled channel cannot take into digests.
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Dialect } from '../../db/dialect';
import type { NotifyConfig } from '../../config';
import type { OperationEntry } from '../../lib/audit-chain';
import type { OutboundClient } from '../../lib/outbound/client';
import type { Audit } from '../../plugins/app/audit';
import { escalateDue, EXPAND_BATCH, expandAlarmEvents } from './alarm-events';
import { maxAttemptsOf } from './channel-config';
import { foldIntoDigest } from './digest';
import { claimDue, markFailed, markSent, markRetry, noteThrottled, release, renewClaims, type MessageRow, type SentMessage } from './outbox';
import { DeliveryPacer } from './pacing';
import { loadChannels, markHealthy, markUnhealthy, outgoingOf, permitFor, type LoadedChannel } from './sending';
import type { Delivery } from './vendors';

/** A claim lapses after this long (another instance then takes the message); renewed halfway through a long round. */
export const CLAIM_LEASE_MS = 120_000;
/** Messages claimed per round. */
const CLAIM_BATCH = 50;
/** Channels sent to at once. */
const CHANNELS_AT_ONCE = 8;
/** Up to this many dead letters of a round get an audit record each; more get one summary. */
const DEAD_LETTERS_ITEMIZED = 100;

export interface WorkerDependencies {
  db: Kysely<Database>;
  dialect: Dialect;
  outbound: OutboundClient;
  audit: Pick<Audit, 'operations' | 'moduleOf'>;
  log: FastifyBaseLogger;
  config: NotifyConfig;
  instanceId: string;
  /** Epoch ms; a test brings a clock it moves itself. */
  clock?: () => number;
  /** In [0, 1): the jitter of retries. */
  random?: () => number;
}

interface DeadLetter {
  id: number;
  channel: string;
  title: string;
  attempts: number;
  reason: string;
}

/** Full jitter: a random wait up to base * 2^(attempt - 1), capped. */
export function retryDelay(attempt: number, config: Pick<NotifyConfig, 'retryBaseMs' | 'retryMaxMs'>, random: () => number): number {
  const ceiling = Math.min(config.retryMaxMs, config.retryBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

export class NotificationWorker {
  /** Names this worker's claims (instance id and a random part: two apps in one process stay apart). */
  readonly claimer: string;
  private readonly clock: () => number;
  private readonly random: () => number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private wokenWhileRunning = false;
  private stopped = true;
  private readonly pacer: DeliveryPacer;

  constructor(private readonly deps: WorkerDependencies) {
    this.claimer = `${deps.instanceId}:${crypto.randomBytes(3).toString('hex')}`.slice(0, 64);
    this.clock = deps.clock ?? Date.now;
    this.random = deps.random ?? Math.random;
    this.pacer = new DeliveryPacer(deps.config.deliveryShare, { alarms: EXPAND_BATCH, messages: CLAIM_BATCH });
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** New messages are queued (and committed): send them now rather than at the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) this.wokenWhileRunning = true;
    else this.schedule(0);
  }

  /** Stops polling and waits for the round under way (the worker's drain ends with it). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /**
   * Expands and sends what is due, round after round, until a round finds nothing; answers how many
   * messages it took. Paced (the running worker), it rests after each busy round (see Pacing above);
   * a test's drain is not.
   */
  async drain(paced = false): Promise<number> {
    let total = 0;
    let lastRestUtilization: number | null = null;
    for (;;) {
      const started = performance.now();
      const expanded = await this.expand();
      const expandedAt = performance.now();
      const taken = await this.round();
      if (taken === 0 && expanded === 0) return total;
      total += taken;
      // A stopping worker ends with the round under way: the backlog stays queued for the next
      // instance (or this one's restart), rather than holding a shutdown until it is all sent.
      if (paced && this.stopped) return total;
      // Only a backlog is paced: a full expansion or a full claim.
      if (!paced || (taken < CLAIM_BATCH && expanded < EXPAND_BATCH)) continue;
      const rest = this.pacer.restAfterRound({ expanded, expandMs: expandedAt - started, taken, sendMs: performance.now() - expandedAt }, lastRestUtilization);
      if (rest <= 0) continue;
      const before = performance.eventLoopUtilization();
      await sleep(rest);
      lastRestUtilization = performance.eventLoopUtilization(before).utilization;
    }
  }

  /** Expands one chunk of the alarm events waiting into messages; answers how many alarms it took. */
  expand(): Promise<number> {
    return expandAlarmEvents(this.deps.db, this.deps.dialect);
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), delayMs);
  }

  private tick(): void {
    this.timer = null;
    if (this.running || this.stopped) return;
    this.running = this.drain(true)
      .then(
        () => undefined,
        (error: unknown) => this.deps.log.error({ err: error }, 'notification delivery round failed'),
      )
      .finally(() => {
        this.running = null;
        const again = this.wokenWhileRunning;
        this.wokenWhileRunning = false;
        if (!this.stopped) this.schedule(again ? 0 : this.deps.config.pollMs);
      });
  }

  /** One claim and its sends; answers how many messages it claimed. */
  async round(): Promise<number> {
    const { db, dialect } = this.deps;
    const claimedAt = this.clock();
    // Escalation steps that came due become messages first, so this very round sends them.
    await escalateDue(db, dialect, claimedAt);
    const claimed = await claimDue(db, dialect, this.claimer, claimedAt, CLAIM_LEASE_MS, CLAIM_BATCH);
    if (claimed.length === 0) return 0;
    const channels = await loadChannels(
      db,
      claimed.map((message) => message.channelId),
    );
    const byChannel = new Map<number, MessageRow[]>();
    for (const message of claimed) byChannel.set(message.channelId, [...(byChannel.get(message.channelId) ?? []), message]);
    const deadLetters: DeadLetter[] = [];
    const groups = [...byChannel.entries()];
    const next = () => groups.shift();
    await Promise.all(
      Array.from({ length: Math.min(CHANNELS_AT_ONCE, groups.length) }, async () => {
        for (let group = next(); group; group = next()) {
          const [channelId, messages] = group;
          try {
            await this.sendAll(channels.get(channelId), messages, claimedAt, deadLetters);
          } catch (error) {
            // Left claimed: the claim lapses and the messages are taken again.
            this.deps.log.error({ err: error, channelId }, 'notification channel round failed');
          }
        }
      }),
    );
    await this.recordDeadLetters(deadLetters);
    return claimed.length;
  }

  /**
   * A channel's messages of this round, in order. Those sent are marked together when the channel's
   * round ends (or before its claims are renewed), whatever ends it.
   */
  private async sendAll(channel: LoadedChannel | undefined, messages: MessageRow[], claimedAt: number, deadLetters: DeadLetter[]): Promise<void> {
    const sent: SentMessage[] = [];
    const round = await this.sendInOrder(channel, messages, claimedAt, deadLetters, sent).then(
      () => null,
      (error: unknown) => ({ error }),
    );
    try {
      await markSent(this.deps.db, this.deps.dialect, this.claimer, sent);
    } catch (error) {
      // The round's own failure, if any, is the one its caller reports; this one is logged beside it
      // (these messages stay claimed and go out again once the claim lapses).
      if (!round) throw error;
      this.deps.log.error({ err: error, channelId: channel?.id, messageIds: sent.map((s) => s.message.id) }, 'marking sent notification messages failed');
    }
    if (round) throw round.error;
  }

  private async sendInOrder(channel: LoadedChannel | undefined, messages: MessageRow[], claimedAt: number, deadLetters: DeadLetter[], sent: SentMessage[]): Promise<void> {
    const { db, dialect, config } = this.deps;
    let renewedAt = claimedAt;
    let healthy = false;
    for (const [index, message] of messages.entries()) {
      const now = this.clock();
      const untried = messages.slice(index);
      if (!channel?.vendor || channel.state !== 1) {
        const reason = !channel ? '渠道不存在' : channel.vendor ? '渠道已停用，未发送' : `渠道类型 ${channel.type} 不受支持`;
        await markFailed(db, message, this.claimer, reason, null);
        deadLetters.push({ id: message.id, channel: channel?.name ?? '', title: message.title, attempts: message.attempts, reason });
        continue;
      }
      if (now - renewedAt > CLAIM_LEASE_MS / 2) {
        await markSent(db, dialect, this.claimer, sent.splice(0));
        await renewClaims(
          db,
          untried.map((m) => m.id),
          this.claimer,
          now + CLAIM_LEASE_MS,
        );
        renewedAt = now;
      }
      const permit = await permitFor(db, dialect, channel, now);
      if (!permit.granted) {
        await foldIntoDigest(db, dialect, channel.id, untried, this.claimer, { freeAt: permit.freeAt }, now);
        return;
      }
      const outgoing = await outgoingOf(db, message, channel, config.consoleUrl);
      const delivery = await channel.vendor.deliver(outgoing, channel.settings, { outbound: this.deps.outbound, now });
      const after = this.clock();
      if (delivery.verdict === 'sent') {
        sent.push({ message, delivery, at: after });
        if (!healthy) await markHealthy(db, channel.id, after);
        healthy = true;
      } else if (delivery.verdict === 'throttled') {
        await noteThrottled(db, message, this.claimer, delivery);
        await foldIntoDigest(db, dialect, channel.id, untried, this.claimer, { freeAt: after + (delivery.pauseMs ?? 0), vendorPause: true }, after);
        return;
      } else if (delivery.verdict === 'refused') {
        await this.deadLetter(message, channel, delivery, deadLetters);
        await markUnhealthy(db, channel.id, delivery.reason, after);
      } else if (message.attempts + 1 >= maxAttemptsOf(channel.settings)) {
        await this.deadLetter(message, channel, delivery, deadLetters);
        await release(
          db,
          untried.slice(1).map((m) => m.id),
          this.claimer,
          after + retryDelay(1, config, this.random),
        );
        return;
      } else {
        const at = after + retryDelay(message.attempts + 1, config, this.random);
        await markRetry(db, message, this.claimer, delivery, at);
        await release(
          db,
          untried.slice(1).map((m) => m.id),
          this.claimer,
          at,
        );
        return;
      }
    }
  }

  private async deadLetter(message: MessageRow, channel: LoadedChannel, delivery: Delivery, deadLetters: DeadLetter[]): Promise<void> {
    await markFailed(this.deps.db, message, this.claimer, delivery.reason, delivery);
    deadLetters.push({ id: message.id, channel: channel.name, title: message.title, attempts: message.attempts + 1, reason: delivery.reason });
  }

  /** Dead letters go into the operation log, as the system's records (one each, or a summary for many). */
  private async recordDeadLetters(deadLetters: DeadLetter[]): Promise<void> {
    if (deadLetters.length === 0) return;
    const { audit, log } = this.deps;
    let module = '';
    try {
      module = await audit.moduleOf('monitor/message');
    } catch (error) {
      log.error({ err: error }, 'operation log names lookup failed');
    }
    const common = {
      operatorType: 'system',
      operatorId: null,
      operatorName: '系统',
      module,
      action: '通知发送失败',
      path: '',
      targetType: 'message',
      outcome: 'failed',
      code: 500,
      ip: '',
      durationMs: 0,
      params: 'null',
      changes: '[]',
      // Failed deliveries are the group's configuration at work (a digest spans hotels): unscoped.
      actorOrgId: null,
      targetOrgId: null,
    } as const;
    const entries: OperationEntry[] =
      deadLetters.length > DEAD_LETTERS_ITEMIZED
        ? [{ ...common, targetId: '', targetLabel: `${deadLetters.length} 条通知`, msg: `${deadLetters.length} 条通知发送失败，可在通知记录中重发` }]
        : deadLetters.map((letter) => ({
            ...common,
            targetId: String(letter.id),
            targetLabel: `${letter.channel}：${letter.title}`,
            msg: `已尝试 ${letter.attempts} 次，发送失败：${letter.reason}`,
          }));
    await audit.operations(entries);
  }
}
