/**
 * One send as the worker and 测试发送 both make it: the channel as stored, the permit its rate
 * limit gives, and the message as its vendor formats it (a digest says what it carries).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Dialect } from '../../db/dialect';
import { parseSettings, type ChannelSettings } from './channel-config';
import { digestContent } from './digest';
import type { MessageRow } from './outbox';
import { takeSend } from './rate-limit';
import { fillLink } from './templates';
import { vendorOf, type Outgoing, type Vendor } from './vendors';

type Db = Kysely<Database>;

export interface LoadedChannel {
  id: number;
  name: string;
  type: string;
  state: number;
  settings: ChannelSettings;
  vendor: Vendor | undefined;
  /** Until when the vendor asked for no sends (its rate-limit answer). */
  pausedUntil: number;
}

export async function loadChannels(db: Db, ids: readonly number[]): Promise<Map<number, LoadedChannel>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('notifyChannel as c')
    .leftJoin('notifyChannelRate as r', 'r.channelId', 'c.id')
    .select(['c.id', 'c.name', 'c.type', 'c.state', 'c.config', 'r.pausedUntil'])
    .where('c.id', 'in', [...new Set(ids)])
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      { id: row.id, name: row.name, type: row.type, state: row.state, settings: parseSettings(row.config), vendor: vendorOf(row.type), pausedUntil: Number(row.pausedUntil ?? 0) },
    ]),
  );
}

/**
 * May the channel send now? A channel with a rate limit takes a send of its shared allowance
 * (rate-limit.ts); one without still keeps a vendor's pause. Otherwise: when it may.
 */
export async function permitFor(db: Db, dialect: Dialect, channel: LoadedChannel, now: number): Promise<{ granted: true } | { granted: false; freeAt: number }> {
  const windows = channel.vendor?.limits(channel.settings) ?? [];
  if (windows.length > 0) return takeSend(db, dialect, channel.id, windows, now);
  return channel.pausedUntil > now ? { granted: false, freeAt: channel.pausedUntil } : { granted: true };
}

const payloadOf = (text: string): unknown => {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

/** The message as its vendor formats it: its console link made absolute (and put where a template says `{{link}}`), a digest's content read. */
export async function outgoingOf(db: Db, message: MessageRow, channel: LoadedChannel, consoleUrl: string | undefined): Promise<Outgoing> {
  const common = { id: message.id, kind: message.kind, alarmId: message.alarmId, channelName: channel.name, createdAt: message.createdAt };
  if (message.kind === 'digest') {
    const digest = await digestContent(db, message.id);
    const link = consoleUrl ? `${consoleUrl}/monitor/message?digestId=${message.id}` : '';
    return { ...common, title: digest.title, body: digest.body, link, payload: digest.payload };
  }
  const link = consoleUrl && message.link ? `${consoleUrl}${message.link}` : '';
  return { ...common, title: fillLink(message.title, link), body: fillLink(message.body, link), link, payload: payloadOf(message.payload) };
}

/** Marks a channel healthy (only when it was not, so a stream of successes writes nothing). */
export async function markHealthy(db: Db, channelId: number, now: number): Promise<void> {
  await db.updateTable('notifyChannel').set({ health: 'ok', healthReason: '', healthAt: now }).where('id', '=', channelId).where('health', '<>', 'ok').execute();
}

/** A vendor refused for good: the channel is unhealthy and says why. */
export async function markUnhealthy(db: Db, channelId: number, reason: string, now: number): Promise<void> {
  await db
    .updateTable('notifyChannel')
    .set({ health: 'unhealthy', healthReason: reason.slice(0, 500), healthAt: now })
    .where('id', '=', channelId)
    .execute();
}
