/**
 * The offline sweep (the 设备离线检测 schedule): takes offline every online device not heard from
 * within its type's timeout (or the schedule's minutes), a chunk at a time, each chunk one
 * transaction with the devices' transitions (history rows, alarms); the operation-log records of
 * the whole run are written once it ends (transitions.ts).
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema';
import { idIn } from '../../lib/id-list';
import { yieldToEventLoop } from '../../lib/event-loop';
import { applyDeviceTransitions, flipTo, takeChildrenOffline, TransitionRecords } from './transitions';
import { anyLocationAlarm, raiseLocationAlarms } from './location-alarms';

/** The device_type dictionary value of a gateway (routes/hotel/device/gateway.ts). */
export const GATEWAY_TYPE = 'gateway';

/**
 * Devices the offline sweep flips in its first transaction of a run of stale devices (see
 * sweepOffline); the next ones follow the time it took (ChunkPacing).
 */
export const SWEEP_CHUNK = 1_000;
/** Gateways the sweep takes offline in its first transaction, each with its children (fifty, say). */
export const GATEWAY_CHUNK = 20;

/**
 * How long each of the sweep's transactions aims to take. On SQLite a transaction holds the one
 * connection, and every statement the event loop, so each heartbeat meanwhile waits up to this
 * long; on PostgreSQL a heartbeat waits for none of them, and each transaction's fixed statements
 * and commit are a cost per chunk that larger chunks share out (a mass outage of 100,000 devices
 * behind gateways: 3.7-4.8x its floor at 100 ms, 2.1-3.6x at 400 ms; a million: 3.0x, 1.86-1.95x).
 */
export const CHUNK_MS = { sqlite: 15, postgres: 400 } as const;

/**
 * Chunks of gateways the sweep runs at once. On PostgreSQL each is a transaction on a pool
 * connection of its own, a server process that another core runs, and gateways' chunks share no
 * row; on SQLite the one connection runs one.
 */
export const GATEWAY_LANES = { sqlite: 1, postgres: 2 } as const;

/** The size of the next chunk of a sweep: `took` is told what each chunk held and how long it took. */
export interface Pacing {
  readonly size: number;
  took(count: number, ms: number): void;
}

/**
 * A chunk size that follows the time its chunks take: the size that would have taken `budgetMs`,
 * moving at most twofold per chunk, so one chunk slowed by another process does not swing it far.
 */
export class ChunkPacing implements Pacing {
  constructor(
    public size: number,
    private readonly budgetMs: number,
    private readonly max: number,
  ) {}

  took(count: number, ms: number): void {
    if (count === 0) return;
    const fitting = (count * this.budgetMs) / Math.max(ms, 0.1);
    this.size = Math.max(1, Math.min(this.max, Math.round(Math.min(this.size * 2, Math.max(this.size / 2, fitting)))));
  }
}

/** The pacing of a sweep's chunks of gateways (each with its children) and of devices. */
export const sweepPacing = (app: FastifyInstance): { gateways: Pacing; devices: Pacing } => ({
  gateways: new ChunkPacing(GATEWAY_CHUNK, CHUNK_MS[app.dialect], 1_000),
  devices: new ChunkPacing(SWEEP_CHUNK, CHUNK_MS[app.dialect], 100_000),
});

type StaleColumn = 'online' | 'lastSeenAt';
/**
 * Which online devices a sweep range holds (never heard from; quiet past a cutoff), with each column
 * it tests as `column` gives it: as itself where the index range is wanted, or behind a unary plus,
 * which no index serves, where the devices are already picked by id.
 */
export type StaleDevices = (eb: ExpressionBuilder<Database, 'hotelDevicePresence'>, column: (name: StaleColumn) => Expression<number | null>) => Expression<SqlBool>;
const indexed = (name: StaleColumn) => sql<number | null>`${sql.ref(name)}`;
const byIdOnly = (name: StaleColumn) => sql<number | null>`+${sql.ref(name)}`;

/**
 * The next chunk of `stale` devices after `from`, in (last_seen_at, id) order: one range of the
 * presence index on (online, last_seen_at, id) (migration 017), however many devices share a
 * last-seen time.
 */
export const staleChunk = (db: Kysely<Database>, stale: StaleDevices, from: { id: number; lastSeenAt: number | null } | undefined, size = SWEEP_CHUNK) =>
  db
    .selectFrom('hotelDevicePresence')
    .select(['id', 'lastSeenAt'])
    .where((eb) => stale(eb, indexed))
    .$if(from?.lastSeenAt != null, (q) => q.where((eb) => eb(eb.refTuple('lastSeenAt', 'id'), '>', eb.tuple(from!.lastSeenAt!, from!.id))))
    .$if(from !== undefined && from.lastSeenAt == null, (q) => q.where('id', '>', from!.id))
    .orderBy('lastSeenAt')
    .orderBy('id')
    .limit(size);

/**
 * Takes the picked devices offline that are still `stale` (one heard from meanwhile stays online),
 * answering the ids it flipped. By id only: with the condition on the index's columns SQLite
 * answered this UPDATE from the whole stale range of (online, last_seen_at) once per chunk, so a
 * mass outage of a million devices read half a billion index entries (24 s in all).
 */
export const flipStaleOffline = (app: FastifyInstance, db: Kysely<Database>, stale: StaleDevices, ids: number[], at: number) =>
  db
    .updateTable('hotelDevicePresence')
    .set(flipTo(0, at))
    .where(idIn(app.dialect, 'id', ids))
    .where((eb) => stale(eb, byIdOnly))
    .returning('id');

/** Sweeps once at `now`; answers the run log's message. */
export async function sweepOffline(app: FastifyInstance, now: number, minutes: number, pacing = sweepPacing(app)): Promise<string> {
  // Heartbeats this instance holds back (last-seen.ts) count: a device heard from is not stale.
  await app.lastSeen.flush();
  // Per-type timeouts (a handful of rows) become a CASE over the type in the set-based UPDATE;
  // types without one get this task's minutes. The plain bound on last_seen_at (the shortest
  // timeout's cutoff) keeps the statement on the index whatever the CASE says.
  const timeouts = await app.db.selectFrom('hotelDeviceTypeTimeout').select(['type', 'minutes']).execute();
  const cutoffOf = (m: number) => now - m * 60_000;
  const latestCutoff = Math.max(cutoffOf(minutes), ...timeouts.map((t) => cutoffOf(t.minutes)));
  const cutoff =
    timeouts.length === 0
      ? sql<number>`${sql.lit(cutoffOf(minutes))}`
      : sql<number>`case (select type from hotel_device where hotel_device.id = hotel_device_presence.id) ${sql.join(
          timeouts.map((t) => sql`when ${t.type} then ${sql.lit(cutoffOf(t.minutes))}`),
          sql` `,
        )} else ${sql.lit(cutoffOf(minutes))} end`;
  // Two index ranges of (online, last_seen_at), never an OR across them, so neither database
  // reads every online device: those never heard from, then those quiet past the shortest cutoff,
  // in last-seen order, each chunk starting after the last one picked (so devices in the range
  // that a longer per-type timeout keeps online are read once, not once per chunk).
  const neverSeen: StaleDevices = (eb, column) => eb.and([eb(column('online'), '=', 1), eb(column('lastSeenAt'), 'is', null)]);
  const quiet: StaleDevices = (eb, column) => eb.and([eb(column('online'), '=', 1), eb(column('lastSeenAt'), '<', latestCutoff), eb(column('lastSeenAt'), '<', cutoff)]);
  const lastSeen = sql.raw('hotel_device_presence.last_seen_at');
  const staleNow = sql<SqlBool>`(hotel_device_presence.online = 1 and (${lastSeen} is null or (${lastSeen} < ${sql.lit(latestCutoff)} and ${lastSeen} < ${cutoff})))`;
  let flipped = 0;
  const records = new TransitionRecords(app, 0, now);
  // Gateways first: a gateway that is down takes its children with it, and they are then its
  // symptoms, unreachable behind it, not alarms of their own (transitions.ts). The partial index
  // of gateways (migration 028) makes this a read of the gateways alone. Each gateway's stale
  // children go offline with it, in its transaction.
  // Read on `app.reads` (SQLite: a reader thread, which sees the flush above): on the main
  // connection the read of 20,000 gateways held the event loop 44-70 ms, together with the first
  // chunk in the same turn, and with it a heartbeat (85 ms); each chunk checks again that its
  // gateways are still stale. Their ids come back as one text: as 20,000 rows, taking them from the
  // reader thread's message (and naming their columns) held the event loop ~30 ms.
  const staleGateway: StaleDevices = (eb, column) => eb.or([neverSeen(eb, column), quiet(eb, column)]);
  const idList =
    app.dialect === 'sqlite'
      ? sql<string | null>`group_concat(hotel_device.id, ',' order by hotel_device.id)`
      : sql<string | null>`string_agg(hotel_device.id::text, ',' order by hotel_device.id)`;
  const { ids: gatewayIds } = await app.reads
    .selectFrom('hotelDevice')
    .innerJoin('hotelDevicePresence', 'hotelDevicePresence.id', 'hotelDevice.id')
    .select(idList.as('ids'))
    .where('hotelDevice.type', '=', sql.lit(GATEWAY_TYPE))
    .where((eb) => staleGateway(eb, byIdOnly))
    .executeTakeFirstOrThrow();
  const gateways = gatewayIds === null ? [] : gatewayIds.split(',').map(Number);
  let next = 0;
  const takeChunk = async (): Promise<void> => {
    const ids = gateways.slice(next, next + pacing.gateways.size);
    next += ids.length;
    const began = performance.now();
    const count = await app.db.transaction().execute(async (trx) => {
      const offline = await flipStaleOffline(app, trx, staleGateway, ids, now).execute();
      await applyDeviceTransitions(app, trx, { devices: offline, to: 0, cause: 'sweep', at: now }, records);
      const children = await takeChildrenOffline(
        app,
        trx,
        offline.map((row) => row.id),
        staleNow,
        now,
        records,
      );
      return offline.length + children;
    });
    flipped += count;
    pacing.gateways.took(ids.length, performance.now() - began);
    await yieldToEventLoop();
  };
  // One chunk at a time while the records may still itemize what a chunk flips (so they name the
  // same devices and alarms however many lanes run), then the lanes side by side, each taking the
  // next gateways when its chunk is done: their chunks share no device (a gateway has no gateway).
  while (next < gateways.length && !records.settled) await takeChunk();
  let failed = false;
  const lane = async (): Promise<void> => {
    while (!failed && next < gateways.length) {
      await takeChunk().catch((error: unknown) => {
        failed = true;
        throw error;
      });
    }
  };
  // A lane that fails stops the others after their chunk in hand; the sweep then fails with its error.
  const lanes = await Promise.allSettled(Array.from({ length: GATEWAY_LANES[app.dialect] }, lane));
  const failure = lanes.find((ended): ended is PromiseRejectedResult => ended.status === 'rejected');
  if (failure) throw failure.reason;
  // Floors and buildings going as a whole become one alarm each, raised before their devices flip
  // so that those flips are its symptoms (location-alarms.ts). Only when something is still stale:
  // the count reads every device with a location (children behind a gateway that is down count for
  // none, and have gone with it).
  const anyStale = await app.db
    .selectFrom('hotelDevicePresence')
    .select('id')
    .where((eb) => eb.and([eb('online', '=', 1), eb.or([eb('lastSeenAt', 'is', null), eb('lastSeenAt', '<', latestCutoff)])]))
    .limit(1)
    .executeTakeFirst();
  if (anyStale) {
    // Named in the run's records, which also send their queued messages at once.
    await raiseLocationAlarms(app, staleNow, now, records.raised);
  }
  const locations = await anyLocationAlarm(app.db);
  for (const stale of [neverSeen, quiet]) {
    let after: { id: number; lastSeenAt: number | null } | undefined;
    for (;;) {
      const size = pacing.devices.size;
      const began = performance.now();
      // The chunk's ids first, then the UPDATE by id with the condition checked again: a plan
      // that cannot turn into a join re-reading the table per row, as PostgreSQL chose for an
      // UPDATE … WHERE id IN (SELECT … LIMIT) on stale statistics (3.5 s for 5,000 devices).
      const picked = await staleChunk(app.db, stale, after, size).execute();
      if (picked.length === 0) break;
      after = picked[picked.length - 1];
      // In chunks, each one transaction (the flags with their history and alarms): a mass outage
      // of a hotel group flips a million devices, and holding them all (the RETURNING, then
      // their history, alarms and audit) would take gigabytes.
      flipped += await app.db.transaction().execute(async (trx) => {
        // Ids only: the records name the few devices they itemize when the run ends.
        const offline = await flipStaleOffline(
          app,
          trx,
          stale,
          picked.map((row) => row.id),
          now,
        ).execute();
        await applyDeviceTransitions(app, trx, { devices: offline, to: 0, cause: 'sweep', at: now, locations }, records);
        return offline.length;
      });
      pacing.devices.took(picked.length, performance.now() - began);
      await yieldToEventLoop();
      if (picked.length < size) break;
    }
  }
  await records.write();
  const perType = timeouts.length === 0 ? '' : `（${timeouts.length} 种设备类型按各自的超时时间）`;
  return `已将 ${flipped} 台超过 ${minutes} 分钟没有心跳的设备标记为离线${perType}`;
}
