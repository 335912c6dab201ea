/**
 * PostgreSQL prepared statements for repeated SQL (db/pg-prepared.ts, issue 10): a text becomes a
 * named statement on its fifth run, at most `max` texts are named, and the answers are the same.
 * A pattern match (`like $n`, the lists' searches) is never named: its plan hangs on the pattern.
 */
import { sql } from 'kysely';
import { describeOnPostgres, postgresHandles } from './support/harness';
import type { DatabaseHandle } from '../../src/server/db/connection';
import { StatementNames } from '../../src/server/db/pg-prepared';

describe('StatementNames', () => {
  it('names a text on its threshold-th run, the same name ever after, one name per text', () => {
    const names = new StatementNames({ threshold: 3, max: 10 });
    expect(names.nameOf('select 1')).toBeUndefined();
    expect(names.nameOf('select 1')).toBeUndefined();
    const name = names.nameOf('select 1');
    expect(name).toMatch(/^s_[0-9a-f]{32}$/);
    expect(names.nameOf('select 1')).toBe(name);
    for (let i = 0; i < 3; i += 1) names.nameOf('select 2');
    expect(names.nameOf('select 2')).not.toBe(name);
    expect(names.size).toBe(2);
  });

  it('names at most max texts; later ones stay unnamed', () => {
    const names = new StatementNames({ threshold: 1, max: 2 });
    expect(names.nameOf('a')).toBeDefined();
    expect(names.nameOf('b')).toBeDefined();
    expect(names.nameOf('c')).toBeUndefined();
    expect(names.nameOf('c')).toBeUndefined();
    expect(names.nameOf('a')).toBeDefined();
    expect(names.size).toBe(2);
  });

  it('never names a text that matches a pattern given as a parameter, however often it runs', () => {
    const names = new StatementNames({ threshold: 1, max: 10 });
    const search = `select "hotel_device"."id" from "hotel_device" inner join "hotel_device_search" as "matched" on "matched"."id" = "hotel_device"."id" where "hotel_device"."org_id" = $1 and "matched"."name" like $2 escape '\\' limit $3`;
    for (let i = 0; i < 10; i += 1) expect(names.nameOf(search)).toBeUndefined();
    expect(names.nameOf('select "id" from "sys_user" where "user_name" LIKE $1')).toBeUndefined();
    // A literal pattern is the same plan every run; "likes" is only a name.
    expect(names.nameOf(`select "id" from "sys_dict" where "type" like 'x%'`)).toBeDefined();
    expect(names.nameOf('select "likes" from "t" where "id" = $1')).toBeDefined();
    expect(names.size).toBe(2);
  });

  it('forgets its counts rather than growing without bound on texts that vary', () => {
    const names = new StatementNames({ threshold: 2, max: 10 });
    names.nameOf('hot');
    for (let i = 0; i < 10_000; i += 1) names.nameOf(`select ${i}`);
    // The count of 'hot' was forgotten with the rest: two more runs name it.
    expect(names.nameOf('hot')).toBeUndefined();
    expect(names.nameOf('hot')).toBeDefined();
  });
});

describeOnPostgres('prepared statements on PostgreSQL', () => {
  const openHandle = postgresHandles();
  const open = (pgPreparedStatements: boolean) => openHandle({ poolSize: 1, pgPreparedStatements });
  const prepared = async (handle: DatabaseHandle) =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(handle.db)).rows.map((row) => row.statement);

  it('runs a text as a named statement from its fifth run on, with the same answers', async () => {
    const handle = await open(true);
    const answers: number[] = [];
    for (let i = 0; i < 8; i += 1) answers.push((await sql<{ n: number }>`select ${i}::int * 3 as n`.execute(handle.db)).rows[0].n);
    expect(answers).toEqual([0, 3, 6, 9, 12, 15, 18, 21]);
    expect(await prepared(handle)).toContain('select $1::int * 3 as n');
  });

  it('runs a pattern match unnamed, so each run is planned for its pattern', async () => {
    const handle = await open(true);
    const found: number[] = [];
    for (let i = 0; i < 8; i += 1)
      found.push((await sql<{ n: number }>`select count(*)::int as n from (values ('ab'), ('bc')) as t(v) where v like ${i % 2 ? '%b%' : 'a%'}`.execute(handle.db)).rows[0].n);
    expect(found).toEqual([1, 2, 1, 2, 1, 2, 1, 2]);
    expect((await prepared(handle)).filter((text) => text.includes(' like '))).toEqual([]);
  });

  it('prepares nothing when turned off', async () => {
    const handle = await open(false);
    for (let i = 0; i < 8; i += 1) await sql`select ${i}::int * 5 as n`.execute(handle.db);
    expect(await prepared(handle)).toEqual([]);
  });
});
