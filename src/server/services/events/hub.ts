/**
 * This instance's live streams and the one reader of the outbox that feeds them. The hub reads
 * the outbox in id order when woken (NOTIFY on PostgreSQL, the in-process signal on SQLite) and
 * on a slow poll that heals a lost wake-up, and hands each event to every stream allowed to see it.
 * A stream joining with a `Last-Event-ID` first gets what it missed, within a bounded window;
 * beyond it, one `reload` event. Reads, joins and deliveries run one at a time, in order.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Dialect } from '../../db/dialect';
import type { LiveEventKind } from '../../../contract/events';
import { holdsRow, scopeOf, unitsReadNow, type DataScope } from '../../lib/data-scope';
import { ALARM_NOTIFICATION_KIND, localWake } from './outbox';
import { liveSessions, TICKET_TTL_MS, type StreamIdentity } from './tickets';

/** Outbox rows read per query. */
const BATCH = 500;
/** A resume past this many events is told to reload instead. */
export const MAX_REPLAY = 1000;
/** Outbox rows are kept this long: the window a reconnect can resume within. */
export const RETENTION_MS = 10 * 60_000;
/** On PostgreSQL an id is taken before its transaction commits: a gap below the head is re-read this long. */
const GAP_WAIT_MS = 10_000;
const MAX_GAPS = 10_000;
/** A stream whose client reads this far behind is closed; it reconnects and resumes. */
const MAX_BUFFERED_BYTES = 1 << 20;

export interface HubOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  idleMinutes: number;
  /** Subscribes to the PostgreSQL channel; answers the unsubscribe. */
  listen?: (onWake: () => void) => Promise<() => Promise<void>>;
  pollMs?: number;
  heartbeatMs?: number;
  log: { warn(obj: object, msg: string): void };
}

/** Where a stream writes: the raw response, seen only as what the hub needs. */
export interface StreamSink {
  write(chunk: string): boolean;
  end(): void;
  readonly writableLength: number;
}

interface Stream extends StreamIdentity {
  sink: StreamSink;
  closed: boolean;
}

interface OutboxRow {
  id: number;
  kind: string;
  payload: string;
  resource: string | null;
  sessionId: number | null;
  orgId: number | null;
}

const frame = (id: number | null, kind: LiveEventKind, data: string) => `${id === null ? '' : `id: ${id}\n`}event: ${kind}\ndata: ${data}\n\n`;

export class EventHub {
  private readonly streams = new Set<Stream>();
  private head = 0;
  /** PostgreSQL: ids below the head not seen yet, with the time to stop waiting for them. */
  private readonly gaps = new Map<number, number>();
  private chain: Promise<unknown> = Promise.resolve();
  private started: Promise<void> | null = null;
  private stopped = false;
  private wakePending = false;
  private timers: NodeJS.Timeout[] = [];
  private unlisten: (() => Promise<void>) | null = null;
  private readonly onLocalWake = () => this.wake();

  constructor(private readonly options: HubOptions) {}

  get size(): number {
    return this.streams.size;
  }

  /** Starts reading on the first stream: an instance nobody watches holds no listening connection. */
  private start(): Promise<void> {
    this.started ??= (async () => {
      this.head = await this.maxId();
      if (this.options.dialect === 'postgres' && this.options.listen) this.unlisten = await this.options.listen(() => this.wake());
      else localWake.on('wake', this.onLocalWake);
      const every = (ms: number, task: () => void) => {
        const timer = setInterval(task, ms);
        timer.unref();
        this.timers.push(timer);
      };
      every(this.options.pollMs ?? 5_000, () => this.wake());
      every(this.options.heartbeatMs ?? 15_000, () => void this.serial(() => this.heartbeat()));
      every(60_000, () => void this.serial(() => this.prune()));
    })();
    return this.started;
  }

  /**
   * Adds a stream: resumes it after `lastEventId` when given (or tells it to reload), then it
   * receives every event from the hub's head on.
   */
  async join(identity: StreamIdentity, sink: StreamSink, lastEventId: number | null): Promise<() => void> {
    if (this.stopped) {
      // The app is closing: the client reconnects to another instance.
      sink.end();
      return () => undefined;
    }
    await this.start();
    const stream: Stream = { ...identity, sink, closed: false };
    await this.serial(async () => {
      sink.write(`retry: 3000\n\n`);
      // The streams already here get what is new first: the head is then the outbox's latest.
      await this.dispatch();
      if (lastEventId !== null && lastEventId < this.head) await this.resume(stream, lastEventId);
      sink.write(frame(null, 'ready', JSON.stringify({ head: this.head })));
      if (!stream.closed) this.streams.add(stream);
    });
    return () => this.drop(stream);
  }

  /** Reads the outbox soon (several wake-ups in a burst are one read). */
  wake(): void {
    if (this.wakePending || this.stopped || this.streams.size === 0) return;
    this.wakePending = true;
    void this.serial(async () => {
      this.wakePending = false;
      await this.dispatch();
    });
  }

  /** Ends every stream and stops reading: before the server closes, so no connection holds it open. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    localWake.off('wake', this.onLocalWake);
    for (const stream of this.streams) this.close(stream);
    await this.chain.catch(() => undefined);
    if (this.unlisten) await this.unlisten().catch(() => undefined);
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.chain.then(task);
    this.chain = next.catch((error: unknown) => {
      if (!this.stopped) this.options.log.warn({ err: error }, 'live event stream: reading the outbox failed');
    });
    return next;
  }

  private async maxId(): Promise<number> {
    const row = await this.options.db
      .selectFrom('eventOutbox')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    return Number(row?.id ?? 0);
  }

  private async resume(stream: Stream, after: number): Promise<void> {
    const { db } = this.options;
    const oldest = await db
      .selectFrom('eventOutbox')
      .select((eb) => eb.fn.min('id').as('id'))
      .executeTakeFirst();
    const missed = await db
      .selectFrom('eventOutbox')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('id', '>', after)
      .where('id', '<=', this.head)
      .executeTakeFirstOrThrow();
    const oldestId = oldest?.id === null || oldest?.id === undefined ? null : Number(oldest.id);
    // Events after `after` may have been pruned (or are too many to replay): the page reloads.
    if (oldestId === null || after < oldestId - 1 || Number(missed.n) > MAX_REPLAY) {
      stream.sink.write(frame(this.head, 'reload', '{}'));
      return;
    }
    for (let from = after; ;) {
      const rows = await this.rows(db.selectFrom('eventOutbox').selectAll().where('id', '>', from).where('id', '<=', this.head).orderBy('id').limit(BATCH));
      if (rows.length === 0) break;
      await this.deliver(rows, [stream]);
      from = rows[rows.length - 1].id;
    }
  }

  private async dispatch(): Promise<void> {
    const { db } = this.options;
    if (this.streams.size === 0) {
      // Nobody to send to: only the head moves on.
      this.head = Math.max(this.head, await this.maxId());
      this.gaps.clear();
      return;
    }
    for (;;) {
      const now = Date.now();
      for (const [id, until] of this.gaps) if (until <= now) this.gaps.delete(id);
      const gapIds = [...this.gaps.keys()];
      const rows = await this.rows(
        db
          .selectFrom('eventOutbox')
          .selectAll()
          .where((eb) => (gapIds.length === 0 ? eb('id', '>', this.head) : eb.or([eb('id', '>', this.head), eb('id', 'in', gapIds)])))
          .orderBy('id')
          .limit(BATCH),
      );
      const fresh = rows.filter((row) => row.id > this.head);
      for (const row of rows) this.gaps.delete(row.id);
      if (this.options.dialect === 'postgres') {
        // An id skipped here may belong to a transaction still committing: look for it again.
        let expected = this.head + 1;
        for (const row of fresh) {
          for (; expected < row.id && this.gaps.size < MAX_GAPS; expected++) this.gaps.set(expected, now + GAP_WAIT_MS);
          expected = row.id + 1;
        }
      }
      if (fresh.length > 0) this.head = fresh[fresh.length - 1].id;
      if (rows.length > 0) await this.deliver(rows, [...this.streams]);
      if (fresh.length < BATCH) break;
    }
  }

  private async rows(query: {
    execute(): Promise<Array<{ id: number | string; kind: string; payload: string; resource: string | null; sessionId: number | null; orgId: number | null }>>;
  }): Promise<OutboxRow[]> {
    return (await query.execute()).map((row) => ({ ...row, id: Number(row.id) }));
  }

  /**
   * Sends each row to the streams allowed it. Function permission: the receiver's role must hold
   * the row's resource, read now for the roles of these streams (a change of grants applies to
   * the next event).
   */
  private async deliver(rows: OutboxRow[], streams: Stream[]): Promise<void> {
    const grants = await this.grants(rows, streams);
    const scopes = await this.scopes(streams);
    for (const row of rows) {
      // The notification worker's work, not an event.
      if (row.kind === ALARM_NOTIFICATION_KIND) continue;
      for (const stream of streams) {
        if (stream.closed) continue;
        if (row.sessionId !== null) {
          if (row.sessionId !== stream.sessionId) continue;
        } else if (!(stream.builtin || row.resource === null || grants.get(stream.roleId)?.has(row.resource))) continue;
        if (!inDataScope(scopes.get(stream.userId), row)) continue;
        this.send(stream, frame(row.id, row.kind as LiveEventKind, row.payload));
        if (row.kind === 'session-ended') this.drop(stream);
      }
    }
  }

  /** The resources among these rows' that each role of these streams holds (an enabled role's grants). */
  private async grants(rows: OutboxRow[], streams: Stream[]): Promise<Map<number, Set<string>>> {
    const resources = [...new Set(rows.map((row) => row.resource).filter((resource): resource is string => resource !== null))];
    const roleIds = [...new Set(streams.filter((stream) => !stream.builtin).map((stream) => stream.roleId))];
    const held = new Map<number, Set<string>>();
    if (resources.length === 0 || roleIds.length === 0) return held;
    const found = await this.options.db
      .selectFrom('sysRoleAuth as a')
      .innerJoin('sysResource as r', 'r.id', 'a.resource')
      .innerJoin('sysRole as role', 'role.id', 'a.roleId')
      .select(['a.roleId', 'r.path'])
      .where('a.type', '=', 'resource')
      .where('a.roleId', 'in', roleIds)
      .where('r.path', 'in', resources)
      .where('role.state', '=', 1)
      .execute();
    for (const row of found) {
      const set = held.get(row.roleId) ?? new Set<string>();
      set.add(row.path);
      held.set(row.roleId, set);
    }
    return held;
  }

  /**
   * Each receiver's data scope, built now from their unit and role (as a request builds it), so a
   * change of scope, unit or tree applies to the next event. A user no longer found gets none.
   */
  private async scopes(streams: Stream[]): Promise<Map<number, DataScope>> {
    const userIds = [...new Set(streams.map((stream) => stream.userId))];
    const scopes = new Map<number, DataScope>();
    if (userIds.length === 0) return scopes;
    const holders = await this.options.db
      .selectFrom('sysUser as u')
      .innerJoin('sysRole as r', 'r.id', 'u.roleId')
      .select(['u.id as userId', 'u.orgId', 'r.id as roleId', 'r.builtin', 'r.dataScope'])
      .where('u.id', 'in', userIds)
      .execute();
    // One read of the tree, made only if some receiver's scope is a subtree, serves them all.
    const units = unitsReadNow(this.options.db);
    for (const holder of holders) scopes.set(holder.userId, await scopeOf(this.options.dialect, { ...holder, builtin: holder.builtin === 1 }, units));
    return scopes;
  }

  /** A comment line keeps proxies from timing the stream out; streams whose session lapsed end. */
  private async heartbeat(): Promise<void> {
    if (this.streams.size === 0) return;
    const streams = [...this.streams];
    const live = new Set((await liveSessions(this.options.db, [...new Set(streams.map((stream) => stream.sessionId))], this.options.idleMinutes).execute()).map((row) => row.id));
    for (const stream of streams) {
      if (live.has(stream.sessionId)) this.send(stream, ': ping\n\n');
      else {
        // Ended without an event of its own (it lapsed): the purge will report it.
        this.send(stream, frame(null, 'session-ended', JSON.stringify({ reason: 'expired', msg: '登录已失效，请重新登录' })));
        this.drop(stream);
      }
    }
  }

  private prune(): Promise<void> {
    return pruneEvents(this.options.db);
  }

  private send(stream: Stream, chunk: string): void {
    if (stream.closed) return;
    stream.sink.write(chunk);
    if (stream.sink.writableLength > MAX_BUFFERED_BYTES) this.drop(stream);
  }

  private drop(stream: Stream): void {
    this.streams.delete(stream);
    this.close(stream);
  }

  private close(stream: Stream): void {
    if (stream.closed) return;
    stream.closed = true;
    stream.sink.end();
  }
}

/**
 * Drops outbox rows past the resume window (but no notification marker: the worker deletes those
 * once expanded, whenever that is) and lapsed tickets: every minute while a stream is
 * open here, and with the daily session purge (so an outbox nobody reads stays bounded too).
 */
export async function pruneEvents(db: Kysely<Database>, now = Date.now()): Promise<void> {
  await db
    .deleteFrom('eventOutbox')
    .where('createdAt', '<', now - RETENTION_MS)
    .where('kind', '!=', ALARM_NOTIFICATION_KIND)
    .execute();
  await db
    .deleteFrom('eventTicket')
    .where('expiresAt', '<', now - TICKET_TTL_MS)
    .execute();
}

/**
 * The data-scope filter, the stream's one check of it: an event for one session is that session's;
 * an event about a unit's data goes to receivers whose scope holds the unit (scope self holds no
 * unit's events); an event addressed to no unit only to receivers who see everything.
 */
function inDataScope(scope: DataScope | undefined, row: { orgId: number | null; sessionId: number | null }): boolean {
  if (row.sessionId !== null) return true;
  if (!scope) return false;
  return row.orgId === null ? scope.kind === 'all' : holdsRow(scope, { orgId: row.orgId });
}
