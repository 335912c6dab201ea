/**
 * SQLite list reads on reader threads (db/sqlite-readers.ts, issue 10): a long read leaves the
 * event loop free, a read sees what was committed before it, and the readers cannot write.
 */
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from './support/harness';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection';

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

  it('runs reads on the main connection when given no reader threads', async () => {
    const single = await openDatabase({ sqliteFile: target.sqliteFile, sqliteReaders: 0 });
    try {
      expect(single.reads).toBe(single.db);
    } finally {
      await single.close();
    }
  });
});
