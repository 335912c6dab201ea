/**
 * Shutdown while a request runs whose client has gone: Fastify's close no longer waits for it, so
 * closeApp waits for the handler and its audit record (lib/in-flight.ts) before the database
 * closes. The save completes and the operation log keeps its record, address included.
 */
import net from 'node:net';
import { Client } from 'pg';
import { createTestDatabase, describeOnPostgres, dialects, SETUP_TIMEOUT_MS, startTestApp, type TestDatabase } from './support/harness';
import { InFlight } from '../../src/server/lib/in-flight';

describe('InFlight', () => {
  it('settles when the tracked work has ended, work started meanwhile included, or at its timeout', async () => {
    const inFlight = new InFlight();
    expect(await inFlight.settled(10)).toBe(true);
    let finishFirst!: () => void;
    let finishSecond!: () => void;
    void inFlight.track(new Promise<void>((resolve) => (finishFirst = resolve)));
    const settling = inFlight.settled(5_000);
    setTimeout(() => {
      void inFlight.track(new Promise<void>((resolve) => (finishSecond = resolve)));
      finishFirst();
      setTimeout(() => finishSecond(), 20);
    }, 20);
    expect(await settling).toBe(true);
    expect(inFlight.size).toBe(0);

    void inFlight.track(new Promise(() => undefined));
    expect(await inFlight.settled(30)).toBe(false);
  });
});

// A handler held up inside its own statement needs a second connection holding a lock: PostgreSQL.
describeOnPostgres('shutdown with a request whose client has gone', () => {
  let target: TestDatabase;
  beforeAll(async () => {
    target = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await target.drop();
  });

  it(
    'lets the handler and its audit record finish before the database closes',
    async () => {
      const t = await startTestApp(target);
      const token = await t.login();
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as net.AddressInfo;

      // Another session holds the dictionary table: the save will wait inside its INSERT.
      const blocker = new Client({ connectionString: target.url });
      await blocker.connect();
      await blocker.query('begin');
      await blocker.query('lock table sys_dict in exclusive mode');

      const body = JSON.stringify({ code: 'shutdown_kind', label: '关机中', value: 'v1', sort: 1, state: 1, remark: '' });
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/sys/dict/creation HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      // The save is waiting on the lock; the client gives up and the server is told to stop.
      await waitFor(async () => (await blocker.query<{ n: number }>('select count(*)::int as n from pg_locks where not granted')).rows[0].n > 0);
      socket.destroy();
      const closing = t.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await blocker.query('commit');
      await closing;

      const saved = await blocker.query<{ n: number }>("select count(*)::int as n from sys_dict where code = 'shutdown_kind'");
      expect(saved.rows[0].n).toBe(1);
      const records = await blocker.query<{ outcome: string; ip: string }>("select outcome, ip from sys_operation_log where path = '/sys/dict/creation'");
      expect(records.rows).toEqual([{ outcome: 'success', ip: '127.0.0.1' }]);
      await blocker.end();
      // The app starts inside the test: it gets the set-up's allowance, which a loaded machine needs.
    },
    SETUP_TIMEOUT_MS,
  );
});

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 100; tries += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not met');
}

describe('the operation log of a request whose client has gone', () => {
  it('keeps the address the request came from, read when it arrived', async () => {
    const target = await createTestDatabase(dialects()[0]);
    // The socket of a closed connection no longer knows its peer: so it is for this one once its
    // handler starts.
    const t = await startTestApp(
      target,
      {},
      {
        extend: (app) =>
          app.addHook('preHandler', (request, _reply, done) => {
            if (request.url === '/api/sys/dict/creation') Object.defineProperty(request.raw.socket, 'remoteAddress', { get: () => undefined, configurable: true });
            done();
          }),
      },
    );
    try {
      const token = await t.login();
      const created = await t.call('/sys/dict/creation', { code: 'gone_kind', label: '已断开', value: 'v1', sort: 1, state: 1, remark: '' }, token);
      expect(created.code).toBe(200);
      const records = await t.database.db.selectFrom('sysOperationLog').select(['outcome', 'ip']).where('path', '=', '/sys/dict/creation').execute();
      expect(records).toEqual([{ outcome: 'success', ip: '127.0.0.1' }]);
    } finally {
      await t.close();
      await target.drop();
    }
  });
});
