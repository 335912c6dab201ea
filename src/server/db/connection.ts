/**
 * Opens the database: the embedded SQLite file by default, PostgreSQL when a postgres:// URL is
 * given. Both run the same Kysely queries and migrations.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { CamelCasePlugin, Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import type { Database } from './schema';
import type { Dialect } from './dialect';
import { CodeMigrationProvider } from './migrations';
import { defaultReaderCount, sqliteReaders } from './sqlite-readers';
import { prepareRepeatedStatements } from './pg-prepared';

/**
 * The main SQLite connection's page cache (KiB): 2 MB, SQLite's own default (better-sqlite3 builds
 * it with 16 MB). Its work is indexed reads and writes of single rows (heartbeats, flushes, edits),
 * whose pages the operating system's file cache holds anyway: a million devices reporting in, in
 * turn or in random order, answered as fast with 2 MB as with 16, and the server's peak RSS was
 * 14 MB lower. The reader threads keep 16 MB: a deep page by number walks 100,000 index entries,
 * 4x slower with 2 MB.
 */
export const SQLITE_MAIN_PAGE_CACHE_KIB = 2000;

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  /**
   * For read-only queries that may cover many rows (list pages, their counts, exports): on SQLite
   * they run on reader threads (sqlite-readers.ts) so they never hold the event loop; on
   * PostgreSQL on a pool of their own (PG_READ_CONNECTIONS), so they never take the connections
   * the heartbeats need. With 0 readers or read connections, this is `db` itself.
   */
  reads: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
  /** PostgreSQL's connection pool right now (SQLite has one connection and no pool). */
  poolStats?: () => PoolStats;
  /**
   * PostgreSQL: LISTEN on a channel over a connection of its own (reopened after it breaks; a
   * wake-up is also given then, since notifications may have been missed meanwhile). `onHealth`
   * hears when the connection is proven (the time the proof began: every notification committed
   * before it has arrived), every LISTEN_PROBE_MS, and null the moment it breaks or a probe is not
   * heard back. Answers the unsubscribe.
   */
  listen?: (channel: string, onNotify: () => void, onHealth?: (provenAt: number | null) => void) => Promise<() => Promise<void>>;
}

export interface DatabaseOptions {
  /** postgres://… to use PostgreSQL; otherwise the SQLite file below is used. */
  url?: string;
  sqliteFile: string;
  poolSize?: number;
  /** SQLite reader threads for `reads`; 0 runs those queries on the main connection. */
  sqliteReaders?: number;
  /** Their scheduling priority, 0-19 (sqlite-readers.ts READER_NICENESS); default 0, the process's. */
  sqliteReaderNiceness?: number;
  /** PostgreSQL: run repeated statements as named (prepared) ones (pg-prepared.ts); default on. */
  pgPreparedStatements?: boolean;
  /** PostgreSQL: connections of the pool `reads` uses; 0 shares the main pool. */
  pgReadConnections?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const handle = options.url
    ? await openPostgres(options.url, options.poolSize, options.pgPreparedStatements ?? true, options.pgReadConnections ?? 0)
    : await openSqlite(options.sqliteFile, options.sqliteReaders ?? defaultReaderCount(), options.sqliteReaderNiceness ?? 0);
  await migrate(handle);
  return handle;
}

async function openSqlite(file: string, readerCount: number, readerNiceness: number): Promise<DatabaseHandle> {
  const { default: SQLite } = await import('better-sqlite3');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`cache_size = -${SQLITE_MAIN_PAGE_CACHE_KIB}`);
  // A transaction's dirty pages stay in memory until its commit, past that size if need be: an
  // offline-sweep chunk of 1,000 scattered devices dirties ~1,200 pages, and spilling them into the
  // WAL mid-transaction held the event loop longer (1% sweep: slowest heartbeat 37-46 -> 30-32 ms).
  sqlite.pragma('cache_spill = false');
  reusePreparedStatements(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), plugins: [new CamelCasePlugin()] });
  // While a reader thread runs, the readers checkpoint the WAL and the main thread does not
  // (sqlite-readers.ts); with SQLITE_READERS=0 both stay on the one connection, as SQLite does.
  const checkpoints = {
    checkpointMs: CHECKPOINT_INTERVAL_MS,
    onCheckpointers: (running: boolean) => {
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${running ? 0 : SQLITE_AUTOCHECKPOINT_PAGES}`);
    },
  };
  const reads = readerCount > 0 ? sqliteReaders(file, readerCount, checkpoints, readerNiceness) : db;
  return {
    db,
    reads,
    dialect: 'sqlite',
    close: () => closeBoth(db, reads),
  };
}

/** How often reader threads checkpoint the WAL. */
const CHECKPOINT_INTERVAL_MS = 200;
/** SQLite's own default: the commit that takes the log past this many pages checkpoints it. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/** Ends the main connection or pool and, when it has its own, the one for list reads. */
async function closeBoth(db: Kysely<Database>, reads: Kysely<Database>): Promise<void> {
  if (reads !== db) await reads.destroy();
  await db.destroy();
}

/** Compiled statements kept per SQL text; the least recently used goes past this many. */
const STATEMENT_CACHE_SIZE = 500;
/**
 * Longer SQL is compiled per call and not kept. Its text grows with its rows (a multi-row insert
 * of an import batch: 19,000–46,000 characters) and rarely comes again, while its compiled form
 * takes about 0.5 MB: when the last-seen flush was a CASE of a thousand literals, 500 such
 * statements held 230 MB under heartbeats from a fleet. The statements that do repeat (lookups,
 * lists, audit records, the flush) are under 1,100 characters.
 */
export const MAX_KEPT_SQL_LENGTH = 2_000;

/**
 * Kysely's SQLite driver calls prepare() for every query, and better-sqlite3 compiles the SQL anew
 * each time: on the hot paths (a heartbeat's lookup, a session check) compiling cost more than
 * running. Repeated SQL text reuses its compiled statement. A statement still being iterated is
 * busy and cannot run twice at once: the same SQL then gets a fresh one. (Kysely runs one SQLite
 * query at a time, a stream holding the connection to its end, so this guards other callers.)
 */
export function reusePreparedStatements(sqlite: BetterSqlite3.Database): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, BetterSqlite3.Statement>();
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached && !cached.busy) {
      cache.delete(source);
      cache.set(source, cached);
      return cached;
    }
    const statement = prepare(source);
    if (!cached && source.length <= MAX_KEPT_SQL_LENGTH) {
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  }) as typeof sqlite.prepare;
}

async function openPostgres(url: string, poolSize = 10, preparedStatements = true, readConnections = 0): Promise<DatabaseHandle> {
  const pg = await import('pg');
  // bigint columns hold epoch milliseconds and counts: well inside Number's safe range.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  const open = (max: number) => {
    const pool = new pg.Pool({ connectionString: url, max });
    // An idle pooled connection can be cut by the server (restart, failover, admin termination).
    // Without a listener that error would crash the process; the pool drops the client and the
    // next query opens a new one, so there is nothing else to do.
    pool.on('error', () => undefined);
    if (preparedStatements) prepareRepeatedStatements(pool);
    return { pool, db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] }) };
  };
  const { pool, db } = open(poolSize);
  // List pages and their counts on a pool of their own, as SQLite's reader threads: however many
  // staff search at once, at most this many of their queries run, and the heartbeats, sessions and
  // writes keep the main pool (and the database's other cores) to themselves.
  const reads = readConnections > 0 ? open(readConnections).db : db;
  return {
    db,
    reads,
    dialect: 'postgres',
    close: () => closeBoth(db, reads),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    listen: (channel, onNotify, onHealth) => listenPostgres(pg.Client, url, channel, onNotify, onHealth),
  };
}

const RELISTEN_MS = 2_000;
/**
 * A listening connection is probed this often: one that died without a word (a network cut, a
 * server gone away without closing), or a pooler that hands notifications to someone else, would
 * otherwise look alive while notifications are lost.
 */
export const LISTEN_PROBE_MS = 2_000;
/** A probe not heard back this long breaks the connection (it is reopened). */
const PROBE_TIMEOUT_MS = 3_000;

async function listenPostgres(
  Client: typeof import('pg').Client,
  url: string,
  channel: string,
  onNotify: () => void,
  onHealth: (provenAt: number | null) => void = () => undefined,
): Promise<() => Promise<void>> {
  // The probe is a notification to this connection alone. PostgreSQL hands a listener the
  // notifications of all channels in commit order, so hearing it back proves every notification
  // on `channel` committed before it has arrived.
  const probeChannel = `${channel}_probe_${crypto.randomBytes(6).toString('hex')}`;
  let client: InstanceType<typeof Client> | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  let probeHeard: (() => void) | null = null;
  const broken = (which: InstanceType<typeof Client>) => {
    if (client !== which) return;
    client = null;
    onHealth(null);
    void which.end().catch(() => undefined);
    // Open another after a pause; meanwhile the hub polls and the access cache reads the database.
    if (!stopped) reconnect();
  };
  const reconnect = () => {
    retry = setTimeout(() => void connect().then(onNotify, () => (stopped ? undefined : reconnect())), RELISTEN_MS);
  };
  const connect = async (): Promise<void> => {
    // Named, so an operator (and a test) can tell the listening connections apart.
    const next = new Client({ connectionString: url, application_name: `listen:${channel}` });
    next.on('notification', (message) => (message.channel === probeChannel ? probeHeard?.() : onNotify()));
    next.on('error', () => broken(next));
    next.on('end', () => broken(next));
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
      await next.query(`listen ${probeChannel}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    if (stopped) {
      await next.end();
      return;
    }
    client = next;
    onHealth(Date.now());
  };
  const probe = async () => {
    const which = client;
    if (!which || probeHeard) return;
    const startedAt = Date.now();
    // Heard back, or not within the time (a connection gone silent never answers the query either).
    const heard = await new Promise<boolean>((resolve) => {
      const settle = (answer: boolean) => {
        clearTimeout(timeout);
        resolve(answer);
      };
      const timeout = setTimeout(() => settle(false), PROBE_TIMEOUT_MS);
      timeout.unref();
      probeHeard = () => settle(true);
      which.query(`notify ${probeChannel}`).catch(() => settle(false));
    });
    probeHeard = null;
    if (!heard) broken(which);
    else if (client === which) onHealth(startedAt);
  };
  await connect();
  const probes = setInterval(() => void probe(), LISTEN_PROBE_MS);
  probes.unref();
  return async () => {
    stopped = true;
    clearInterval(probes);
    if (retry) clearTimeout(retry);
    const open = client;
    client = null;
    if (open) await open.end().catch(() => undefined);
  };
}

const migratorOf = (db: Kysely<Database>, dialect: Dialect) => new Migrator({ db, provider: new CodeMigrationProvider(dialect) });

/** How many of the migrations this build knows the database has applied (readiness). */
export async function migrationState(db: Kysely<Database>, dialect: Dialect): Promise<{ applied: number; known: number }> {
  const migrations = await migratorOf(db, dialect).getMigrations();
  return { applied: migrations.filter((migration) => migration.executedAt !== undefined).length, known: migrations.length };
}

async function migrate(handle: DatabaseHandle): Promise<void> {
  const migrator = migratorOf(handle.db, handle.dialect);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`数据库迁移失败：${failed?.migrationName ?? ''} ${String(error)}`);
  }
}

/** Unique-constraint violations from either dialect, for turning races into a 409. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
