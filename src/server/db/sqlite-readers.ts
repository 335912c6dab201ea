/**
 * SQLite reads that may cover many rows (list pages and their capped counts, issue 10) run on
 * worker threads, each with its own connection to the database file. better-sqlite3 runs a
 * statement synchronously: on the main thread a search of a few milliseconds holds every heartbeat
 * and request that arrives meanwhile, and one thread serves them all. Here the main thread only
 * hands the SQL over and takes the rows back.
 *
 * WAL lets these connections read while the main connection writes. Each query is its own read
 * transaction, so it sees everything committed before it started: a list asked for after a save
 * shows the save. The connections are query-only: a statement that would write is refused.
 *
 * The workers start with the first query (a process that never lists starts none) and stop with
 * the Kysely instance (`destroy()`).
 *
 * They also take over the WAL checkpoints. SQLite's own runs in the commit that takes the log past
 * 1,000 pages, on the connection that committed: the main thread, which answers the heartbeats. An
 * offline-sweep chunk that flips 1,000 devices spread over the table dirties about 1,000 pages, and
 * its commit held the event loop 21 ms, 14 of them checkpointing. So while a reader is running,
 * each runs a PASSIVE checkpoint (it never waits for a reader or the writer; two at once, the
 * second skips) every `checkpointMs`, and the main connection checkpoints only while none is
 * running (`onCheckpointers`). A reader thread rather than one of its own: a thread costs ~10 MB.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  CamelCasePlugin,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Database } from './schema';

/**
 * How many reader threads by default (SQLITE_READERS overrides): one per core but the main
 * thread's, which keeps a core for the heartbeats; at least one, at most four. Each costs about
 * 25 MB under load.
 */
export const defaultReaderCount = () => Math.max(1, Math.min(4, os.availableParallelism() - 1));

/**
 * The readers' scheduling priority by default (SQLITE_READER_NICE overrides; 0 keeps the
 * process's): lower than the main thread's, which answers the heartbeats. When the cores are busy
 * the main thread runs first and a search (or a reader's WAL checkpoint) waits a few milliseconds
 * more; when they are not, the readers get every idle cycle as before. On 2 cores, a million
 * devices, 50 connections of heartbeats beside 4 staff searching (`npm run bench`): heartbeat p99
 * 17 -> 12-16 ms and 10.0k -> 13.1k-15.7k heartbeats/s, for about 25 % fewer searches in that
 * time; lists alone unchanged. Linux only: elsewhere the readers keep the process's priority.
 */
export const READER_NICENESS = 10;

/**
 * A reader's JavaScript heap: it holds one page of rows at a time. V8's defaults (sized for a
 * main thread) let each reader's young generation grow by tens of MB under load, which counts
 * against the server's memory budget (issue 10: 200 MB).
 */
const READER_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 };

/** Statements each reader keeps compiled, by SQL text. */
const STATEMENT_CACHE_SIZE = 200;

/** The reader thread (plain JavaScript, run with `eval`: the same in the build and under jest). */
const READER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('query_only = ON');
// Linux schedules threads one by one: setpriority on this thread's id lowers its priority alone.
if (workerData.niceness > 0) {
  try {
    const threadId = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    require('node:os').setPriority(threadId, workerData.niceness);
  } catch {
    // Not Linux: the thread keeps the process's priority.
  }
}
if (workerData.checkpointMs > 0)
  setInterval(() => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Busy (a backup holds the database): the next turn copies what this one did not.
    }
  }, workerData.checkpointMs);
const statements = new Map();
function prepared(sql) {
  let statement = statements.get(sql);
  if (statement) return statement;
  statement = db.prepare(sql);
  if (statements.size >= ${STATEMENT_CACHE_SIZE}) statements.delete(statements.keys().next().value);
  statements.set(sql, statement);
  return statement;
}
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    const statement = prepared(sql);
    if (!statement.reader) throw Object.assign(new Error('只读连接不执行写入语句'), { code: 'SQLITE_READONLY' });
    parentPort.postMessage({ id, rows: statement.all(parameters) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

interface Answer {
  id: number;
  rows?: unknown[];
  error?: { message: string; code?: string };
}

class Reader {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  /** Set when the thread ended: the pool starts another in its place. */
  dead = false;

  constructor(file: string, checkpointMs: number, niceness: number, onDeath: () => void) {
    this.worker = new Worker(READER_SOURCE, {
      eval: true,
      workerData: { file, driver: require.resolve('better-sqlite3'), checkpointMs, niceness },
      resourceLimits: READER_HEAP,
    });
    // A reader never keeps the process alive: destroy() ends it, and so does the process's exit.
    this.worker.unref();
    this.worker.on('message', (answer: Answer) => {
      const call = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (answer.error) call?.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
      else call?.resolve(answer.rows ?? []);
    });
    // A reader that died (it could not open the file) fails what it was asked, never hangs it.
    const failAll = (error: Error) => {
      for (const call of this.waiting.values()) call.reject(error);
      this.waiting.clear();
      if (!this.dead) {
        this.dead = true;
        onDeath();
      }
    };
    this.worker.on('error', failAll);
    this.worker.on('exit', (code) => failAll(new Error(`SQLite 读取线程已退出（${code}）`)));
  }

  /** Queries sent and not yet answered: the pool sends to the reader with the fewest. */
  get load(): number {
    return this.waiting.size;
  }

  query(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      const id = (this.nextId += 1);
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, sql, parameters });
    });
  }

  stop(): Promise<number> {
    return this.worker.terminate();
  }
}

export interface CheckpointOptions {
  /** How often each running reader checkpoints the WAL; 0 never (the main connection does). */
  checkpointMs: number;
  /** Told when the first reader starts (true) and when none is left running (false). */
  onCheckpointers: (running: boolean) => void;
}

const NO_CHECKPOINTS: CheckpointOptions = { checkpointMs: 0, onCheckpointers: () => undefined };

class ReaderPool implements Driver, DatabaseConnection {
  private readers: Reader[] = [];

  constructor(
    private readonly file: string,
    private readonly count: number,
    private readonly checkpoints: CheckpointOptions,
    private readonly niceness: number,
  ) {}

  init(): Promise<void> {
    return Promise.resolve();
  }

  // One connection object for all: each query goes to the least busy reader.
  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(this);
  }

  releaseConnection(): Promise<void> {
    return Promise.resolve();
  }

  beginTransaction(): Promise<void> {
    return Promise.reject(new Error('SQLite 读取线程不支持事务'));
  }

  commitTransaction(): Promise<void> {
    return this.beginTransaction();
  }

  rollbackTransaction(): Promise<void> {
    return this.beginTransaction();
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const rows = await this.leastBusy().query(compiled.sql, compiled.parameters);
    return { rows: rows as R[] };
  }

  // Part of the interface; list reads are pages, never streams.
  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('SQLite 读取线程不支持流式查询');
  }

  async destroy(): Promise<void> {
    const readers = this.readers;
    this.readers = [];
    await Promise.all(readers.map((reader) => reader.stop()));
  }

  private leastBusy(): Reader {
    this.readers = this.readers.filter((reader) => !reader.dead);
    if (this.readers.length < this.count) {
      const idle = this.readers.find((reader) => reader.load === 0);
      if (idle) return idle;
      const started = new Reader(this.file, this.checkpoints.checkpointMs, this.niceness, () => this.readerDied());
      this.readers.push(started);
      if (this.readers.length === 1) this.checkpoints.onCheckpointers(true);
      return started;
    }
    return this.readers.reduce((best, reader) => (reader.load < best.load ? reader : best));
  }

  private readerDied(): void {
    this.readers = this.readers.filter((reader) => !reader.dead);
    if (this.readers.length === 0) this.checkpoints.onCheckpointers(false);
  }
}

/**
 * A Kysely instance over the database file whose queries run on `count` reader threads, each at
 * `niceness` (0-19, see READER_NICENESS).
 */
export function sqliteReaders(file: string, count: number, checkpoints = NO_CHECKPOINTS, niceness = 0): Kysely<Database> {
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new ReaderPool(file, count, checkpoints, niceness),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
    plugins: [new CamelCasePlugin()],
  });
}
