/**
 * The heartbeat's write path (issue 10). A hotel group's devices report in thousands of times a
 * second, and almost every heartbeat only moves the last-seen time of a device that is already
 * online: those times are coalesced in memory and written in one set-based UPDATE per batch every
 * `flushMs` (default 1 s), so a heartbeat costs one indexed read and no write.
 *
 * What must never be lost is written at once, not buffered: a device coming back online flips its
 * flag in the heartbeat's own conditional UPDATE and hands the flip to the transitions, before the
 * heartbeat is answered. A crash therefore loses at most `flushMs` of last-seen times of devices
 * that stay online, never a reported online/offline change.
 *
 * A flush writes only rows still online: a device the sweep took offline (or a staff edit
 * disabled) between its heartbeat and the flush is not silently given a fresh time while offline;
 * an enabled one comes back online through the same flip as a heartbeat, so its transition is kept.
 * The offline sweep flushes this instance's buffer before it looks for stale devices.
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { StatusDevice } from './records';
import { applyDeviceTransitions, flipTo, TransitionRecords } from './transitions';
import { yieldToEventLoop } from '../../lib/event-loop';
import { idIn, idValueRows } from '../../lib/id-list';

/**
 * Rows per flush statement (the event loop runs between them). On SQLite a statement holds the
 * event loop while it writes, about 5 µs a row whatever the batch (1,000 devices among a million:
 * 6.0 ms; 250: 1.2 ms), so smaller batches cost nothing and shorten each hold.
 */
export const FLUSH_BATCH = 250;

/**
 * Flips a device that is offline (and enabled) to online at `at`, and hands the flip to the
 * transitions in the same transaction. Exactly once per change: only the UPDATE that finds the flag
 * at 0 flips it. Answers false when nothing flipped (already online, or disabled meanwhile).
 */
export async function bringOnline(app: FastifyInstance, device: StatusDevice, at: number): Promise<boolean> {
  const records = new TransitionRecords(app, 1, at);
  const flipped = await app.db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('hotelDevicePresence')
      .set({ lastSeenAt: at, ...flipTo(1, at) })
      .where('id', '=', device.id)
      .where('online', '=', 0)
      .where((eb) => eb.exists(eb.selectFrom('hotelDevice').select('hotelDevice.id').where('hotelDevice.id', '=', device.id).where('hotelDevice.state', '=', 1)))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await applyDeviceTransitions(app, trx, { devices: [device], to: 1, cause: 'heartbeat', at }, records);
    return true;
  });
  if (flipped) await records.write();
  return flipped;
}

/**
 * Takes these online devices offline at `at` at once (a gateway reporting that its children
 * disconnected), with their transitions in the same transaction; answers how many flipped.
 */
export async function takeOffline(app: FastifyInstance, devices: StatusDevice[], at: number): Promise<number> {
  if (devices.length === 0) return 0;
  const records = new TransitionRecords(app, 0, at);
  const byId = new Map(devices.map((device) => [device.id, device]));
  const flipped = await app.db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable('hotelDevicePresence')
      .set(flipTo(0, at))
      .where(idIn(app.dialect, 'id', [...byId.keys()]))
      .where('online', '=', 1)
      .returning('id')
      .execute();
    await applyDeviceTransitions(app, trx, { devices: rows.map((row) => byId.get(row.id)!), to: 0, cause: 'disconnect', at }, records);
    return rows.length;
  });
  await records.write();
  return flipped;
}

export class LastSeenBuffer {
  private pending = new Map<number, { device: StatusDevice; at: number }>();
  private timer: NodeJS.Timeout | null = null;
  /** Flushes run one after another: a flush asked for while one runs waits for it. */
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly app: FastifyInstance,
    private readonly flushMs: number,
  ) {}

  /** Heartbeats waiting to be written (for metrics and tests). */
  get size(): number {
    return this.pending.size;
  }

  /** A heartbeat of an online device at `at`: written with the next flush. */
  note(device: StatusDevice, at: number): void {
    const known = this.pending.get(device.id);
    if (!known || known.at < at) this.pending.set(device.id, { device, at });
    this.schedule();
  }

  /**
   * Writes every heartbeat noted so far; resolves when they are in the database, or when the
   * database refused them (logged, kept and retried by the next flush): it never rejects.
   */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.chain = this.chain.then(() => this.write());
    return this.chain;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.flushMs);
    // A waiting flush never keeps a process alive: shutdown flushes on its own (onClose).
    this.timer.unref();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    // In id order, which is the table's order: devices report in whatever order their clocks give,
    // and a batch of ids scattered over the table dirtied a page per row, each also read anew. Sorted,
    // each batch walks one stretch of the table (SQLite, a million devices: 65 -> 25 µs a row).
    const entries = [...this.pending.values()].sort((a, b) => a.device.id - b.device.id);
    this.pending = new Map();
    try {
      for (let start = 0; start < entries.length; start += FLUSH_BATCH) {
        await this.writeBatch(entries.slice(start, start + FLUSH_BATCH));
        await yieldToEventLoop();
      }
    } catch (error) {
      // The database refused (restarting, failing over): keep what is not newer by now, so the
      // next flush writes it.
      for (const entry of entries) if ((this.pending.get(entry.device.id)?.at ?? -1) < entry.at) this.pending.set(entry.device.id, entry);
      this.app.log.error({ err: error, pending: this.pending.size }, 'last-seen flush failed; retried at the next flush');
      this.schedule();
    }
  }

  private async writeBatch(entries: Array<{ device: StatusDevice; at: number }>): Promise<void> {
    // One constant statement, its ids and times two parameters: as a CASE of literals each batch
    // was new SQL, compiled anew (and, on SQLite, 0.5 MB each).
    const seen = idValueRows(
      this.app.dialect,
      entries.map(({ device }) => device.id),
      entries.map(({ at }) => at),
    );
    const { rows: written } = await sql<{ id: number }>`
      update hotel_device_presence set last_seen_at = seen.value from (${seen}) as seen
      where hotel_device_presence.id = seen.id and hotel_device_presence.online = 1
      returning hotel_device_presence.id`.execute(this.app.db);
    if (written.length === entries.length) return;
    const online = new Set(written.map((row) => row.id));
    for (const { device, at } of entries) if (!online.has(device.id)) await bringOnline(this.app, device, at);
  }
}
