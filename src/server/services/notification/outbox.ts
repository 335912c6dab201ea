/**
 * The outbox (notify_message): a row per message to send, written in the transaction of the change
 * it tells of (an alarm's: in the one that expands its marker, alarm-events.ts), claimed by one instance at a time and moved to its outcome. The delivery worker
 * (worker.ts) is its only reader; `enqueueNotifications` is what the rest of the product calls.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, NewRow, Row } from '../../db/schema';
import type { Dialect } from '../../db/dialect';
import { valueRows } from '../../lib/id-list';
import type { Delivery } from './vendors';

type Db = Kysely<Database> | Transaction<Database>;
export type MessageRow = Row<'notifyMessage'>;

/** A message to send, as the alarm code, rules and escalation steps hand it over. */
export interface NotificationMessage {
  channelId: number;
  /** The alarm it is about; null for a message about no alarm. */
  alarmId: number | null;
  kind: 'raise' | 'clear' | 'escalation';
  /** At most 200 characters (longer is cut). */
  title: string;
  /** Markdown (lists, bold); the robots render it, e-mail sends it as text. */
  body: string;
  /** The console path it links to (e.g. `/hotel/alarm?id=12`); NOTIFY_CONSOLE_URL is put before it. */
  link?: string;
  /** Structured fields (the alarm's), which the webhook sends as they are. */
  payload?: Record<string, unknown>;
  /** Not sent before this time (an escalation step's delay); default at once. */
  notBefore?: number;
}

/** Rows per INSERT: far below both dialects' limit on bound parameters (SQLite 32,766; PostgreSQL 65,535). */
const INSERT_CHUNK = 1000;
const TITLE_MAX = 200;
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Queues messages, set-based: one INSERT per thousand rows, never one per message, so a mass
 * outage's messages cost a few statements. Call it with the transaction of the change, so the
 * messages exist exactly when the change does; after the commit, `Notifications.wake()` sends them
 * at once (otherwise the next poll does). Answers how many were queued.
 */
export async function enqueueNotifications(db: Db, messages: readonly NotificationMessage[], now = Date.now()): Promise<number> {
  const rows: NewRow<'notifyMessage'>[] = messages.map((message) => ({
    channelId: message.channelId,
    alarmId: message.alarmId,
    kind: message.kind,
    title: cut(message.title, TITLE_MAX),
    body: message.body,
    link: message.link ?? '',
    payload: message.payload ? JSON.stringify(message.payload) : '',
    state: 'queued',
    nextAttemptAt: Math.max(now, message.notBefore ?? now),
    createdAt: now,
  }));
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await db
      .insertInto('notifyMessage')
      .values(rows.slice(start, start + INSERT_CHUNK))
      .execute();
  }
  return rows.length;
}

/**
 * Claims up to `limit` due messages for `claimer` in one statement: queued ones whose time has
 * come and claimed ones whose claim lapsed (an instance that died mid-send). On PostgreSQL the rows
 * are picked FOR UPDATE SKIP LOCKED, so instances claiming at once take disjoint sets; SQLite has
 * one writer. While claimed, next_attempt_at holds when the claim lapses. A poll that finds nothing
 * due only reads: on SQLite the UPDATE takes the database's write lock, every poll of an idle
 * worker, and waits out another process's write on the event loop (up to the busy timeout).
 */
export async function claimDue(db: Kysely<Database>, dialect: Dialect, claimer: string, now: number, leaseMs: number, limit: number): Promise<MessageRow[]> {
  const dueNow = db.selectFrom('notifyMessage').select('id').where('state', 'in', ['queued', 'sending']).where('nextAttemptAt', '<=', now);
  if (!(await dueNow.limit(1).executeTakeFirst())) return [];
  const due = dueNow
    .orderBy('nextAttemptAt')
    .orderBy('id')
    .limit(limit)
    .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked());
  const rows = await db
    .updateTable('notifyMessage')
    .set({ state: 'sending', claimedBy: claimer, nextAttemptAt: now + leaseMs })
    .where('id', 'in', due)
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}

/** An outcome written only while the claim is still this instance's (a lapsed claim may have passed on). */
function mine(db: Db, id: number, claimer: string) {
  return db.updateTable('notifyMessage').where('id', '=', id).where('state', '=', 'sending').where('claimedBy', '=', claimer);
}

const answered = (delivery: Delivery) => ({ vendorStatus: delivery.status, vendorAnswer: delivery.answer });
const errorText = (reason: string) => cut(reason, 500);

export interface SentMessage {
  message: MessageRow;
  delivery: Delivery;
  at: number;
}

/**
 * Sent messages, each with its own answer and time, marked in one statement (a round's, or the one
 * 重发 sent): one commit and one round trip rather than one per message (on SQLite each commit
 * appends the row's page and its three index pages to the WAL, on the thread that answers the
 * heartbeats; on PostgreSQL a round's 50 statements ran in the database's processes on the core the
 * heartbeats' statements need too: docs/api/monitor.md, heartbeats during a storm). As `mine`, only
 * while the claim is still this instance's.
 */
export async function markSent(db: Db, dialect: Dialect, claimer: string, sent: readonly SentMessage[]): Promise<void> {
  if (sent.length === 0) return;
  const rows = valueRows(
    dialect,
    { id: 'bigint', at: 'bigint', attempts: 'int', status: 'int', answer: 'text' },
    sent.map(({ message, delivery, at }) => [message.id, at, message.attempts + 1, delivery.status, delivery.answer]),
  );
  await sql`
    update notify_message as m
    set state = 'sent', sent_at = s.at, attempts = s.attempts, last_error = '', vendor_status = s.status, vendor_answer = s.answer
    from (${rows}) as s
    where m.id = s.id and m.state = 'sending' and m.claimed_by = ${claimer}`.execute(db);
}

/** A dead letter: refused for good or out of attempts; `delivery` is the try that failed, null when none was made. */
export async function markFailed(db: Db, message: MessageRow, claimer: string, reason: string, delivery: Delivery | null): Promise<void> {
  await mine(db, message.id, claimer)
    .set({ state: 'failed', attempts: message.attempts + (delivery ? 1 : 0), lastError: errorText(reason), ...(delivery ? answered(delivery) : {}) })
    .execute();
}

/** Failed for now: tried again at `at`. */
export async function markRetry(db: Db, message: MessageRow, claimer: string, delivery: Delivery, at: number): Promise<void> {
  await mine(db, message.id, claimer)
    .set({ state: 'queued', attempts: message.attempts + 1, nextAttemptAt: at, lastError: errorText(delivery.reason), ...answered(delivery) })
    .execute();
}

/** Throttled by the vendor: the try counts and its answer is kept; the message then goes into a digest. */
export async function noteThrottled(db: Db, message: MessageRow, claimer: string, delivery: Delivery): Promise<void> {
  await mine(db, message.id, claimer)
    .set({ attempts: message.attempts + 1, lastError: errorText(delivery.reason), ...answered(delivery) })
    .execute();
}

/** Claimed messages given back untried (their channel failed meanwhile): queued for `at`. */
export async function release(db: Db, ids: readonly number[], claimer: string, at: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('notifyMessage')
    .set({ state: 'queued', nextAttemptAt: at })
    .where('id', 'in', ids)
    .where('state', '=', 'sending')
    .where('claimedBy', '=', claimer)
    .execute();
}

/** Keeps a long round's claims from lapsing under it. */
export async function renewClaims(db: Db, ids: readonly number[], claimer: string, until: number): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('notifyMessage').set({ nextAttemptAt: until }).where('id', 'in', ids).where('state', '=', 'sending').where('claimedBy', '=', claimer).execute();
}
