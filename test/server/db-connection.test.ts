/**
 * The PostgreSQL connection pool outlives connections the server cuts (restart, failover); a
 * listening connection that dies without a word is found out by its probe and opened again;
 * SQLite's reused statements (db/connection.ts) never serve two reads at once.
 */
import net from 'node:net';
import { Client } from 'pg';
import { sql } from 'kysely';
import { createTestDatabase, startTestApp, ADMIN_PASSWORD, SETUP_TIMEOUT_MS } from './support/harness';
import BetterSqlite3 from 'better-sqlite3';
import { MAX_KEPT_SQL_LENGTH, openDatabase, reusePreparedStatements } from '../../src/server/db/connection';

const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

onPostgres('PostgreSQL pool', () => {
  it(
    'keeps serving after the server terminates its idle connections',
    async () => {
      const target = await createTestDatabase('postgres');
      const app = await startTestApp(target);
      try {
        const token = await app.login('admin', ADMIN_PASSWORD);
        const admin = new Client({ connectionString: target.url });
        await admin.connect();
        const { rowCount } = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
        await admin.end();
        expect(rowCount).toBeGreaterThan(0);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect((await app.call('GET /sys/menu/authority', null, token)).code).toBe(200);
      } finally {
        await app.close();
        await target.drop();
      }
      // It creates and migrates its own database (see the harness's setup budget).
    },
    SETUP_TIMEOUT_MS,
  );
});

/** A TCP relay to the database server that can stop passing bytes: a connection dead without a word. */
async function relayTo(url: URL) {
  let frozen = false;
  const server = net.createServer((inbound) => {
    const outbound = net.connect(Number(url.port || 5432), url.hostname);
    const close = () => {
      inbound.destroy();
      outbound.destroy();
    };
    for (const [from, to] of [
      [inbound, outbound],
      [outbound, inbound],
    ]) {
      from.on('data', (chunk) => (frozen ? undefined : to.write(chunk)));
      from.on('error', close).on('close', close);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relayed = new URL(url);
  relayed.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url: relayed.toString(),
    freeze: () => void (frozen = true),
    thaw: () => void (frozen = false),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

onPostgres('PostgreSQL listening connection', () => {
  it(
    'is proven by its probe again and again, reported broken when a probe goes unanswered, and listened on again',
    async () => {
      const target = await createTestDatabase('postgres');
      const relay = await relayTo(new URL(target.url!));
      const handle = await openDatabase({ url: relay.url, sqliteFile: target.sqliteFile, poolSize: 2 });
      const health: Array<number | null> = [];
      let heard: () => void = () => undefined;
      const next = async (wanted: (provenAt: number | null) => boolean) => {
        for (;;) {
          const found = health.findIndex(wanted);
          if (found >= 0) return health.splice(0, found + 1)[found];
          await new Promise<void>((resolve) => (heard = resolve));
        }
      };
      let notified = 0;
      const unlisten = await handle.listen!(
        'probe_test',
        () => (notified += 1),
        (provenAt) => {
          health.push(provenAt);
          heard();
        },
      );
      try {
        // Listening, then proven by a probe.
        expect(await next(() => true)).toEqual(expect.any(Number));
        expect(await next(() => true)).toEqual(expect.any(Number));
        relay.freeze();
        expect(await next((provenAt) => provenAt === null)).toBeNull();
        relay.thaw();
        expect(await next(() => true)).toEqual(expect.any(Number));
        const before = notified;
        await sql`select pg_notify('probe_test', '')`.execute(handle.db);
        while (notified === before) await new Promise((resolve) => setTimeout(resolve, 10));
      } finally {
        relay.thaw();
        await unlisten();
        await handle.close();
        await relay.close();
        await target.drop();
      }
    },
    SETUP_TIMEOUT_MS,
  );
});

describe('SQLite statement reuse', () => {
  it('answers the compiled statement again for the same SQL, and a fresh one while it is still being read', () => {
    const sqlite = new BetterSqlite3(':memory:');
    reusePreparedStatements(sqlite);
    sqlite.exec('create table t (n integer); insert into t values (1), (2), (3)');
    const sql = 'select n from t order by n';
    const first = sqlite.prepare(sql);
    expect(sqlite.prepare(sql)).toBe(first);
    const reading = first.iterate() as IterableIterator<{ n: number }>;
    expect(reading.next().value).toEqual({ n: 1 });
    // Still iterating (busy): the same SQL meanwhile runs in full on another statement.
    const meanwhile = sqlite.prepare(sql);
    expect(meanwhile).not.toBe(first);
    expect(meanwhile.all()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect([...reading]).toEqual([{ n: 2 }, { n: 3 }]);
    expect(sqlite.prepare(sql)).toBe(first);
    sqlite.close();
  });

  it('keeps no compiled statement for long SQL, which is built with literals and never repeats', () => {
    const sqlite = new BetterSqlite3(':memory:');
    reusePreparedStatements(sqlite);
    sqlite.exec('create table t (n integer)');
    const ids = Array.from({ length: 400 }, (_, i) => i + 1);
    const long = `select n from t where n in (${ids.join(', ')}) or n = ${'0 + '.repeat(100)}0`;
    expect(long.length).toBeGreaterThan(MAX_KEPT_SQL_LENGTH);
    expect(sqlite.prepare(long)).not.toBe(sqlite.prepare(long));
    const short = `select n from t where n in (${ids.slice(0, 10).join(', ')})`;
    expect(sqlite.prepare(short)).toBe(sqlite.prepare(short));
    sqlite.close();
  });
});
