/**
 * Each channel's rate limit, shared by every instance: the channel's latest send times and a pause
 * (after the vendor's own rate-limit answer) live in notify_channel_rate, read and written under
 * that row's lock (PostgreSQL FOR UPDATE; SQLite's one writer), so three instances together send no
 * more than the vendor takes. A sliding window, as the vendors count: at most `count` sends in any
 * `windowMs` (a token bucket of the same rate would let through up to twice that in a minute).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { Dialect } from '../../db/dialect';
import type { RateWindow } from './vendors';

type Db = Kysely<Database>;

export interface RateState {
  /** Epoch ms of the latest sends, oldest first. */
  recent: number[];
  pausedUntil: number;
}

export type RateDecision = { granted: true; state: RateState } | { granted: false; freeAt: number };

/**
 * Whether a send may go now under `windows`, and the state after it; or when the first one may.
 * Only as many send times are kept as the widest window counts.
 */
export function decide(windows: readonly RateWindow[], state: RateState, now: number): RateDecision {
  const horizon = Math.max(0, ...windows.map((w) => w.windowMs));
  const recent = state.recent.filter((at) => at > now - horizon && at <= now);
  let freeAt = Math.max(now, state.pausedUntil);
  for (const { count, windowMs } of windows) {
    const inWindow = recent.filter((at) => at > now - windowMs);
    if (inWindow.length >= count) freeAt = Math.max(freeAt, inWindow[inWindow.length - count] + windowMs);
  }
  if (freeAt > now) return { granted: false, freeAt };
  if (windows.length === 0) return { granted: true, state };
  const keep = Math.max(...windows.map((w) => w.count));
  return { granted: true, state: { recent: [...recent, now].slice(-keep), pausedUntil: state.pausedUntil } };
}

function parseRecent(text: string): number[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.filter((at): at is number => typeof at === 'number').sort((a, b) => a - b) : [];
  } catch {
    return [];
  }
}

/**
 * Runs `step` in a transaction holding the channel's rate row: every instance's sends, pauses and
 * digests of one channel happen one after another.
 */
export async function underChannelLock<T>(db: Db, dialect: Dialect, channelId: number, step: (trx: Transaction<Database>, state: RateState) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('notifyChannelRate')
      .values({ channelId })
      .onConflict((oc) => oc.column('channelId').doNothing())
      .execute();
    const row = await trx
      .selectFrom('notifyChannelRate')
      .select(['recent', 'pausedUntil'])
      .where('channelId', '=', channelId)
      .$if(dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirstOrThrow();
    return step(trx, { recent: parseRecent(row.recent), pausedUntil: Number(row.pausedUntil) });
  });
}

/** Takes a send of the channel's allowance: granted (and counted), or when the next one frees. */
export function takeSend(
  db: Db,
  dialect: Dialect,
  channelId: number,
  windows: readonly RateWindow[],
  now: number,
): Promise<{ granted: true } | { granted: false; freeAt: number }> {
  return underChannelLock(db, dialect, channelId, async (trx, state) => {
    const decision = decide(windows, state, now);
    if (!decision.granted) return decision;
    await trx
      .updateTable('notifyChannelRate')
      .set({ recent: JSON.stringify(decision.state.recent) })
      .where('channelId', '=', channelId)
      .execute();
    return { granted: true };
  });
}

/** The vendor answered its rate-limit error: no sends before `until`. */
export async function pauseSends(trx: Transaction<Database>, channelId: number, state: RateState, until: number): Promise<void> {
  if (until <= state.pausedUntil) return;
  await trx.updateTable('notifyChannelRate').set({ pausedUntil: until }).where('channelId', '=', channelId).execute();
}
