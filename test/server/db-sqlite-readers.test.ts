/**
 * SQLite list reads on reader threads (db/sqlite-readers.ts, issue 10): a long read leaves the
 * event loop free, a read sees what was committed before it, and the readers cannot write. While
 * they run they checkpoint the WAL, and the main connection does not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from './support/harness';
import { openDatabase, SQLITE_MAIN_PAGE_CACHE_KIB, type DatabaseHandle } from '../../src/server/db/connection';
import { READER_NICENESS, sqliteReaders } from '../../src/server/db/sqlite-readers';
import { loadConfig } from '../../src/server/config';

/** A read that keeps SQLite busy for a while (a count over a few million generated rows). */
const longRead = sql<{ n: number }>`with recursive counter(n) as (select 1 union all select n + 1 from counter where n < 3000000) select count(*) as n from counter`;

/** Whether a timer set for 5 ms fired before `read` finished. */
async function timerFiresDuring(read: () => Promise<unknown>): Promise<boolean> {
  let fired = false;
  const timer = setTimeout(() => (fired = true), 5);
  await read();
  clearTimeout(timer);
  return fired;
}

/** The main connection's automatic checkpoint (pages; 0 = never). */
const autocheckpoint = async (database: DatabaseHandle) => (await sql<{ walAutocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db)).rows[0]?.walAutocheckpoint;

/** This process's threads (Linux) at each niceness: field 19 of /proc/self/task/<id>/stat. */
function threadsByNiceness(): Map<number, number[]> {
  const byNiceness = new Map<number, number[]>();
  for (const thread of fs.readdirSync('/proc/self/task')) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/self/task/${thread}/stat`, 'utf8');
    } catch {
      continue; // The thread ended meanwhile.
    }
    // The thread's name, in parentheses, may hold spaces: fields are counted after it.
    const niceness = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    byNiceness.set(niceness, [...(byNiceness.get(niceness) ?? []), Number(thread)]);
  }
  return byNiceness;
}

/** Waits up to `ms` for `condition`. */
async function eventually(condition: () => boolean, ms = 5_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

describe('SQLite reader threads', () => {
  let target: TestDatabase;
  let database: DatabaseHandle;

  beforeAll(async () => {
    target = await createTestDatabase('sqlite');
    database = await openDatabase({ sqliteFile: target.sqliteFile, sqliteReaders: 2 });
  });
  afterAll(async () => {
    await database.close();
    await target.drop();
  });

  it('runs a long read off the event loop, which the main connection would hold', async () => {
    expect(database.reads).not.toBe(database.db);
    expect(await timerFiresDuring(() => longRead.execute(database.reads))).toBe(true);
    // The same read on the main connection: the timer waits for it (what the readers avoid).
    expect(await timerFiresDuring(() => longRead.execute(database.db))).toBe(false);
    expect((await longRead.execute(database.reads)).rows).toEqual([{ n: 3000000 }]);
  });

  it('sees every write committed before the read, at once', async () => {
    await sql`create table reader_probe (id integer primary key, name text not null)`.execute(database.db);
    const nameOf = async (id: number) => (await sql<{ name: string }>`select name from reader_probe where id = ${id}`.execute(database.reads)).rows;
    for (let id = 1; id <= 20; id += 1) {
      await sql`insert into reader_probe (id, name) values (${id}, ${`读取线程 ${id}`})`.execute(database.db);
      expect(await nameOf(id)).toEqual([{ name: `读取线程 ${id}` }]);
      await sql`update reader_probe set name = ${`改名 ${id}`} where id = ${id}`.execute(database.db);
      expect(await nameOf(id)).toEqual([{ name: `改名 ${id}` }]);
    }
  });

  it('keeps the main connection to a 2 MB page cache that does not spill, and leaves the readers 16 MB (the driver default)', async () => {
    // Negative: KiB.
    const cacheOf = async (db: DatabaseHandle['db']) => (await sql<{ cacheSize: number }>`select cache_size from pragma_cache_size()`.execute(db)).rows[0]?.cacheSize;
    expect(await cacheOf(database.db)).toBe(-SQLITE_MAIN_PAGE_CACHE_KIB);
    // A big transaction keeps its dirty pages to its commit rather than spilling them early.
    expect((await sql<{ cacheSpill: number }>`select cache_spill from pragma_cache_spill()`.execute(database.db)).rows[0]?.cacheSpill).toBe(0);
    expect(await cacheOf(database.reads)).toBe(-16000);
  });

  it('answers reads sent at once, each with its own rows', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => sql<{ n: number }>`select ${i} * 2 as n`.execute(database.reads)));
    expect(answers.map((answer) => answer.rows[0]?.n)).toEqual(Array.from({ length: 12 }, (_, i) => i * 2));
  });

  it('refuses writes and transactions, and passes errors on', async () => {
    await sql`create table reader_refusal (id integer primary key)`.execute(database.db);
    await sql`insert into reader_refusal (id) values (1)`.execute(database.db);
    await expect(sql`insert into reader_refusal (id) values (2)`.execute(database.reads)).rejects.toThrow();
    await expect(sql`delete from reader_refusal`.execute(database.reads)).rejects.toThrow();
    await expect(database.reads.transaction().execute(() => Promise.resolve())).rejects.toThrow('不支持事务');
    await expect(sql`select * from no_such_table`.execute(database.reads)).rejects.toThrow('no such table');
    expect((await sql`select id from reader_refusal`.execute(database.db)).rows).toEqual([{ id: 1 }]);
    // The readers still answer after the errors.
    expect((await sql<{ n: number }>`select 1 as n`.execute(database.reads)).rows).toEqual([{ n: 1 }]);
  });

  it('checkpoints the WAL on the readers while they run, the main connection never checkpointing in a commit', async () => {
    // A file of its own: readers of another handle on the same file would checkpoint it too.
    const own = await createTestDatabase('sqlite');
    const fresh = await openDatabase({ sqliteFile: own.sqliteFile, sqliteReaders: 1 });
    try {
      // No reader has started yet: the main connection checkpoints, as SQLite does by default.
      expect(await autocheckpoint(fresh)).toBe(1000);
      await sql`select 1`.execute(fresh.reads);
      expect(await autocheckpoint(fresh)).toBe(0);
      await sql`create table checkpoint_probe (id integer primary key, filler text not null)`.execute(fresh.db);
      const before = fs.statSync(own.sqliteFile).size;
      // About 8 MB in one commit: 2,000 pages, twice what would make the commit checkpoint itself.
      await sql`insert into checkpoint_probe (filler) select printf('%.4000c', 'x') from (with recursive n(i) as (select 1 union all select i + 1 from n where i < 2000) select i from n)`.execute(
        fresh.db,
      );
      expect(await eventually(() => fs.statSync(own.sqliteFile).size >= before + 7_000_000)).toBe(true);
      expect((await sql<{ n: number }>`select count(*) as n from checkpoint_probe`.execute(fresh.reads)).rows).toEqual([{ n: 2000 }]);
    } finally {
      await fresh.close();
      await own.drop();
    }
  });

  it('hands the checkpoints back to the main connection when no reader is left running', async () => {
    const told: boolean[] = [];
    const readers = sqliteReaders(path.join(os.tmpdir(), `no-such-${process.pid}.db`), 1, { checkpointMs: 50, onCheckpointers: (running) => told.push(running) });
    try {
      // The reader cannot open the file and ends: the query fails and the main connection is told.
      expect(
        await sql`select 1`.execute(readers).then(
          () => 'answered',
          () => 'failed',
        ),
      ).toBe('failed');
      expect(await eventually(() => told.length === 2)).toBe(true);
      expect(told).toEqual([true, false]);
    } finally {
      await readers.destroy();
    }
  });

  const onLinux = process.platform === 'linux' ? it : it.skip;
  onLinux('runs its reader threads at a lower priority than the main thread, when told to', async () => {
    const nicedBefore = new Set(threadsByNiceness().get(7) ?? []);
    const own = await openDatabase({ sqliteFile: target.sqliteFile, sqliteReaders: 2, sqliteReaderNiceness: 7 });
    const plain = await openDatabase({ sqliteFile: target.sqliteFile, sqliteReaders: 2 });
    try {
      // Two reads at once start both readers of each handle.
      await Promise.all([own.reads, own.reads, plain.reads, plain.reads].map((reads) => longRead.execute(reads)));
      const niced = (threadsByNiceness().get(7) ?? []).filter((thread) => !nicedBefore.has(thread));
      // Only the two readers told so: the main thread (this one) and the other handle's readers keep 0.
      expect(niced).toHaveLength(2);
      expect(niced).not.toContain(process.pid);
    } finally {
      await own.close();
      await plain.close();
    }
  });

  it("takes the readers' priority from SQLITE_READER_NICE, below the main thread by default, within nice 0-19", () => {
    const nicenessOf = (value?: string) => loadConfig(value === undefined ? {} : { SQLITE_READER_NICE: value }, os.tmpdir()).sqliteReaderNiceness;
    expect(READER_NICENESS).toBeGreaterThan(0);
    expect(nicenessOf()).toBe(READER_NICENESS);
    expect(nicenessOf('0')).toBe(0);
    expect(nicenessOf('15')).toBe(15);
    expect(nicenessOf('40')).toBe(19);
    expect(nicenessOf('-5')).toBe(0);
  });

  it('runs reads and checkpoints on the main connection when given no reader threads', async () => {
    const single = await openDatabase({ sqliteFile: target.sqliteFile, sqliteReaders: 0 });
    try {
      expect(single.reads).toBe(single.db);
      await sql`select 1`.execute(single.reads);
      expect(await autocheckpoint(single)).toBe(1000);
    } finally {
      await single.close();
    }
  });
});
