/**
 * A write that loses to another transaction (PostgreSQL picks it as a deadlock's victim; SQLite's
 * write lock stays taken past the busy timeout) answers 409 with a Chinese "try again", logged at
 * warn, not a 500 "服务器内部错误" at error: nothing of it was committed, and the retry succeeds.
 */
import { once } from 'node:events';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { Code } from '../../src/contract/constants';
import { CONTENDED_MSG } from '../../src/server/plugins/app/errors';
import { describeOnPostgres, testAppOn } from './support/harness';
import { captureLog } from './support/log-capture';
import { TestClock, testWorker } from './support/notify-fixtures';
import { holdWriteLock } from './support/sqlite-write-lock';

type LogLine = { level: number; msg: string; err?: { code?: string } };
const WARN = 40;

const parsed = (lines: readonly string[]) => lines.map((line) => JSON.parse(line) as LogLine);

describe('a write that loses to another transaction [sqlite]', () => {
  const log = captureLog();
  const app = testAppOn('sqlite', {}, { logger: { level: 'warn', stream: log.stream } });

  it('answers 409 while another process holds the write lock past the busy timeout, writes nothing but its audit record, and succeeds once it is free', async () => {
    const t = app();
    const token = await t.login();
    const entries = () => t.database.db.selectFrom('sysDict').select('id').where('label', '=', '争用测试').execute();
    const body = { code: 'contention', label: '争用测试', value: '9', sort: 9, state: 1, remark: '' };
    // Past the busy timeout (5 s) of the request's own write, and released before the timeout of
    // the audit record written after it.
    const holder = await holdWriteLock(t.config.sqliteFile, 8_000);
    const refused = await t.call('/sys/dict/creation', body, token);
    await once(holder, 'exit');

    expect(refused).toMatchObject({ code: Code.conflict, msg: CONTENDED_MSG, data: null });
    expect(await entries()).toEqual([]);
    const record = await t.database.db.selectFrom('sysOperationLog').select(['path', 'code', 'msg']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(record).toEqual({ path: '/sys/dict/creation', code: Code.conflict, msg: CONTENDED_MSG });
    const logged = parsed(log.lines);
    expect(logged.filter((line) => line.level > WARN)).toEqual([]);
    expect(logged).toContainEqual(expect.objectContaining({ level: WARN, msg: 'database contended', err: expect.objectContaining({ code: 'SQLITE_BUSY' }) }));

    expect(await t.call('/sys/dict/creation', body, token)).toMatchObject({ code: Code.ok });
    expect(await entries()).toHaveLength(1);
  });

  it('the notification worker polls with nothing due without taking the write lock: its round waits for no other process', async () => {
    const holder = await holdWriteLock(app().config.sqliteFile, 60_000);
    try {
      // A claim that took the lock would wait out the busy timeout on the event loop and fail.
      expect(await testWorker(app(), new TestClock()).drain()).toBe(0);
    } finally {
      holder.kill();
      await once(holder, 'exit');
    }
    expect(parsed(log.lines).filter((line) => line.level > WARN)).toEqual([]);
  });
});

/** Marks both probe rows in one transaction, `first` before the other, with a pause between. */
function crossingWrites(instance: FastifyInstance): void {
  instance.post<{ Querystring: { first: string; mark: string } }>('/api/test/cross', { config: { access: 'public' } }, async (request) => {
    const first = Number(request.query.first);
    await instance.db.transaction().execute(async (trx) => {
      await sql`update contention_probe set mark = ${request.query.mark} where id = ${first}`.execute(trx);
      await sql`select pg_sleep(0.3)`.execute(trx);
      await sql`update contention_probe set mark = ${request.query.mark} where id = ${3 - first}`.execute(trx);
    });
    return { code: Code.ok, msg: '已保存', data: null };
  });
}

describeOnPostgres('a write that loses to another transaction [postgres]', () => {
  const log = captureLog();
  const app = testAppOn('postgres', {}, { logger: { level: 'warn', stream: log.stream }, extend: crossingWrites });
  beforeAll(async () => {
    await sql`create table contention_probe (id int primary key, mark text not null)`.execute(app().database.db);
    await sql`insert into contention_probe values (1, 'start'), (2, 'start')`.execute(app().database.db);
  });

  it("answers 409 to a deadlock's victim, keeps none of its writes, and the winner's whole", async () => {
    const t = app();
    const cross = (first: number, mark: string) =>
      t.app.inject({ method: 'POST', url: `/api/test/cross?first=${first}&mark=${mark}` }).then((response) => response.json<{ code: number; msg: string }>());
    const answers = await Promise.all([cross(1, 'one'), cross(2, 'two')]);
    expect(answers.map((answer) => answer.code).sort()).toEqual([Code.ok, Code.conflict]);
    const victim = answers.find((answer) => answer.code === Code.conflict)!;
    expect(victim.msg).toBe(CONTENDED_MSG);
    const winner = answers[0].code === Code.ok ? 'one' : 'two';
    const { rows } = await sql<{ mark: string }>`select mark from contention_probe order by id`.execute(t.database.db);
    expect(rows.map((row) => row.mark)).toEqual([winner, winner]);

    const logged = parsed(log.lines);
    expect(logged.filter((line) => line.level > WARN)).toEqual([]);
    expect(logged).toContainEqual(expect.objectContaining({ level: WARN, msg: 'database contended', err: expect.objectContaining({ code: '40P01' }) }));
  });
});
