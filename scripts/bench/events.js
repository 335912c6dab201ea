/**
 * Live event stream bench (issue 27): prints figures, asserts nothing. On SQLite and PostgreSQL the
 * built server runs in a child process (startServer); BENCH_EVENT_CONSOLES consoles (default 200)
 * sign in as one admin session and each opens `GET /api/events` with a ticket of its own. The events
 * are real: each device's first heartbeat flips it online, which writes one `device-status` event
 * to the outbox in the flip's transaction. Two runs of BENCH_EVENT_COUNT heartbeats each:
 * - paced, one heartbeat every BENCH_EVENT_INTERVAL_MS (default 20): the delay of a lone event;
 * - burst, all of them at concurrency 8: the events per second the stream delivers (frames received,
 *   summed over the consoles, from the first event's commit to the last arrival) and the delay then.
 * Delay: from the outbox row's created_at to the frame's arrival at each console (p50/p99 over every
 * console and event). created_at is stamped inside the transaction just before its commit, so the
 * figure is an upper bound on the delay from the commit (by the commit's own time).
 * RSS: VmRSS of the server's process (/proc/<pid>/status) before the consoles, with them connected,
 * and after the burst, with its peak (VmHWM).
 * Floor (run first, printed beside each run): a bare node:http server in a child process writes
 * frames of the same sizes to as many SSE clients, at the same pacing and concurrency, stamped when written.
 * Target: an event reaches 200 consoles within 1 s p99 of its commit; RSS under 250 MB.
 *
 * Needs `npm run build` (dist/node). BENCH_EVENT_DATABASES=sqlite,postgres picks the databases;
 * BENCH_EVENT_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres) is where a temporary
 * database is created and dropped.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { call, startServer } = require('./server');
const { withTemporaryPostgres } = require('./temporary-databases');

const root = path.resolve(__dirname, '../..');
const CONSOLES = Number(process.env.BENCH_EVENT_CONSOLES ?? 200);
const EVENTS = Number(process.env.BENCH_EVENT_COUNT ?? 200);
const INTERVAL_MS = Number(process.env.BENCH_EVENT_INTERVAL_MS ?? 20);
const BURST_CONCURRENCY = 8;
const DATABASES = (process.env.BENCH_EVENT_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const PG_URL = process.env.BENCH_EVENT_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** How long the consoles may take to receive every event of a run before the missing are counted. */
const ARRIVAL_LIMIT_MS = 60_000;
const TARGET_P99_MS = 1000;
const TARGET_RSS_MB = 250;

/** Epoch ms with a fraction, comparable with the server's Date.now(). */
const now = () => performance.timeOrigin + performance.now();
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** VmRSS and VmHWM of a process, in MB. */
function memoryOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/**
 * One SSE client: the arrival time of every `device-status` frame by its id. Resolves at the
 * stream's `readyEvent` frame (the product's `ready`: the console then receives every later event),
 * or at the answer's headers when `readyEvent` is null (the bare server).
 */
function openConsole(url, readyEvent) {
  return new Promise((resolve, reject) => {
    const arrivals = new Map();
    const request = http.get(url, { agent: false, headers: { accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`${url}: HTTP ${response.statusCode}`));
        response.resume();
        return;
      }
      response.setEncoding('utf8');
      let buffer = '';
      const handle = { arrivals, close: () => request.destroy() };
      if (readyEvent === null) resolve(handle);
      response.on('data', (chunk) => {
        const at = now();
        buffer += chunk;
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const id = /^id: (\d+)$/m.exec(block)?.[1];
          const event = /^event: (.+)$/m.exec(block)?.[1];
          if (event === 'device-status' && id !== undefined) arrivals.set(Number(id), at);
          else if (event === readyEvent) resolve(handle);
        }
      });
      response.on('end', () => reject(new Error(`${url}: the stream ended before it was ready`)));
    });
    request.on('error', reject);
  });
}

async function openConsoles(open) {
  const consoles = [];
  // A few at a time: as a reconnecting floor of browsers would, not all in one tick.
  for (let i = 0; i < CONSOLES; i += 10) consoles.push(...(await Promise.all(Array.from({ length: Math.min(10, CONSOLES - i) }, open))));
  return consoles;
}

/** Runs `send(i)` for i < count: one every INTERVAL_MS (paced), or BURST_CONCURRENCY at a time. */
async function drive(count, paced, send) {
  if (paced) {
    const sends = [];
    for (let i = 0; i < count; i += 1) {
      sends.push(send(i));
      await sleep(INTERVAL_MS);
    }
    await Promise.all(sends);
    return;
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: BURST_CONCURRENCY }, async () => {
      while (next < count) await send(next++);
    }),
  );
}

/** Waits until every console holds every id (or the limit passes); answers the delays and figures. */
async function collect(consoles, committed) {
  const ids = [...committed.keys()];
  const started = now();
  while (now() - started < ARRIVAL_LIMIT_MS && !consoles.every((c) => ids.every((id) => c.arrivals.has(id)))) await sleep(20);
  const delays = [];
  let last = 0;
  let missing = 0;
  for (const c of consoles) {
    for (const [id, at] of committed) {
      const arrived = c.arrivals.get(id);
      if (arrived === undefined) missing += 1;
      else {
        delays.push(arrived - at);
        last = Math.max(last, arrived);
      }
    }
  }
  delays.sort((a, b) => a - b);
  const first = Math.min(...committed.values());
  return { delays, missing, frames: delays.length, rate: delays.length / ((last - first) / 1000) };
}

/** A run's figures; beside the floor's run of the same kind when given (the product's lines carry the target). */
function report(label, figures, floor) {
  const { delays, missing, rate } = figures;
  if (delays.length === 0) {
    console.log(`  ${label.padEnd(44)} no frame arrived (${missing} missing)`);
    return;
  }
  const p99 = percentile(delays, 99);
  const beside = floor?.delays.length ? `  floor ${floor.rate.toFixed(0)}/s, p99 ${percentile(floor.delays, 99).toFixed(1)} ms;` : '';
  const target = floor === undefined ? '' : `${beside} target p99 ≤ ${TARGET_P99_MS} ms: ${p99 <= TARGET_P99_MS && missing === 0 ? 'met' : 'MISSED'}`;
  console.log(
    `  ${label.padEnd(44)} ${rate.toFixed(0).padStart(7)} events/s delivered  delay p50 ${percentile(delays, 50).toFixed(1).padStart(6)} ms  p99 ${p99.toFixed(1).padStart(7)} ms  max ${delays.at(-1).toFixed(1).padStart(7)} ms${missing ? `  MISSING ${missing}` : ''}${target ? ` (${target.trim()})` : ''}`,
  );
}

const rssLine = (label, memory) => console.log(`  ${label.padEnd(44)} RSS ${memory.rss.toFixed(1).padStart(6)} MB  (peak ${memory.peak.toFixed(1)} MB)`);

/** The outbox's `device-status` rows after `after`: id -> created_at. */
async function outboxRows(database, after) {
  const text = `select id, created_at from event_outbox where kind = 'device-status' and id > ${Number(after)} order by id`;
  if (database.sqliteFile) {
    const Sqlite = require('better-sqlite3');
    const db = new Sqlite(database.sqliteFile, { readonly: true });
    try {
      return new Map(
        db
          .prepare(text)
          .all()
          .map((row) => [Number(row.id), Number(row.created_at)]),
      );
    } finally {
      db.close();
    }
  }
  const { Client } = require('pg');
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    return new Map((await client.query(text)).rows.map((row) => [Number(row.id), Number(row.created_at)]));
  } finally {
    await client.end();
  }
}

async function headOf(database) {
  const rows = await outboxRows(database, 0);
  return rows.size === 0 ? 0 : Math.max(...rows.keys());
}

async function benchProduct(name, env, database, floor) {
  console.log(`\n== Live event stream on ${name}: ${CONSOLES} consoles, ${EVENTS} events a run (device heartbeats flipping devices online)`);
  const server = await startServer(env);
  const where = database.url ? database : { sqliteFile: path.join(server.dataDir, 'hotel.db') };
  try {
    const { token } = await call(server.base, '/sys/user/verify', { userName: 'admin', password: server.password });
    const devices = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < 2 * EVENTS) {
          const sn = `BENCH-EV-${String(next++).padStart(5, '0')}`;
          const { deviceKey } = await call(server.base, '/hotel/device/creation', { name: `压测实时设备 ${sn}`, sn, type: 'lock', state: 1, remark: '' }, token);
          devices.push({ sn, key: deviceKey });
        }
      }),
    );
    const before = memoryOf(server.pid);
    const consoles = await openConsoles(async () => {
      const { ticket } = await call(server.base, '/events/ticket', {}, token);
      return openConsole(`${server.base}/events?ticket=${ticket}`, 'ready');
    });
    await sleep(1000);
    const connected = memoryOf(server.pid);
    try {
      for (const [label, paced, offset, run] of [
        [`paced, one every ${INTERVAL_MS} ms`, true, 0, 'paced'],
        [`burst, concurrency ${BURST_CONCURRENCY}`, false, EVENTS, 'burst'],
      ]) {
        const head = await headOf(where);
        await drive(EVENTS, paced, (i) => call(server.base, '/hotel/device/heartbeat', { sn: devices[offset + i].sn }, null, { 'x-device-key': devices[offset + i].key }));
        const committed = await outboxRows(where, head);
        if (committed.size !== EVENTS) console.log(`  (${committed.size} device-status events in the outbox for ${EVENTS} heartbeats)`);
        report(label, await collect(consoles, committed), floor[run] ?? null);
      }
      const after = memoryOf(server.pid);
      rssLine('server, before the consoles', before);
      rssLine(`server, ${CONSOLES} consoles connected`, connected);
      rssLine(`server, after both runs`, after);
      console.log(
        `  ${''.padEnd(44)} target: under ${TARGET_RSS_MB} MB with ${CONSOLES} consoles: ${Math.max(connected.rss, after.rss) < TARGET_RSS_MB ? 'met' : 'MISSED'}${floor.rss ? `; floor ${floor.rss.toFixed(1)} MB` : ''}`,
      );
    } finally {
      for (const c of consoles) c.close();
    }
  } finally {
    await server.stop();
  }
}

/** The floor: a bare node:http server that writes each posted frame to every SSE client at once. */
const BARE = `
const http = require('node:http');
const streams = new Set();
let id = 0;
const server = http.createServer((request, response) => {
  if (request.method === 'GET') {
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    response.socket.setNoDelay(true);
    response.write('retry: 3000\\n\\n');
    streams.add(response);
    request.on('close', () => streams.delete(response));
    return;
  }
  let data = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => (data += chunk));
  request.on('end', () => {
    id += 1;
    const at = performance.timeOrigin + performance.now();
    const frame = 'id: ' + id + '\\nevent: device-status\\ndata: ' + data + '\\n\\n';
    for (const stream of streams) stream.write(frame);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, at }));
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

async function benchFloor() {
  console.log(`\n== Floor: a bare node:http server writing the same frames to ${CONSOLES} SSE clients`);
  const child = spawn(process.execPath, ['-e', BARE], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise((resolve) => child.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim()))));
    const base = `http://127.0.0.1:${port}`;
    const before = memoryOf(child.pid);
    const consoles = await openConsoles(() => openConsole(`${base}/stream`, null));
    await sleep(1000);
    const connected = memoryOf(child.pid);
    const figures = {};
    try {
      for (const [label, paced, run] of [
        [`paced, one every ${INTERVAL_MS} ms`, true, 'paced'],
        [`burst, concurrency ${BURST_CONCURRENCY}`, false, 'burst'],
      ]) {
        const committed = new Map();
        await drive(EVENTS, paced, async (i) => {
          // The product's frame for one device: the same size.
          const data = JSON.stringify({ deviceIds: [100000 + i], online: 1, at: Date.now() });
          const answer = await (await fetch(`${base}/emit`, { method: 'POST', body: data })).json();
          committed.set(answer.id, answer.at);
        });
        figures[run] = await collect(consoles, committed);
        report(label, figures[run]);
      }
      const after = memoryOf(child.pid);
      rssLine('bare server, before the clients', before);
      rssLine(`bare server, ${CONSOLES} clients connected`, connected);
      rssLine('bare server, after both runs', after);
      figures.rss = Math.max(connected.rss, after.rss);
      return figures;
    } finally {
      for (const c of consoles) c.close();
    }
  } finally {
    child.kill('SIGTERM');
  }
}

async function run() {
  if (!fs.existsSync(path.join(root, 'dist/node/server/main.js'))) {
    console.log('\n== Live event stream: dist/node missing, run `npm run build` first');
    return;
  }
  const floor = await benchFloor();
  if (DATABASES.includes('sqlite')) await benchProduct('SQLite', { DATABASE_URL: '' }, {}, floor);
  if (DATABASES.includes('postgres'))
    await withTemporaryPostgres(PG_URL, 'hotel_bench_events', 'Live event stream', (url) => benchProduct('PostgreSQL', { DATABASE_URL: url }, { url }, floor));
}

module.exports = { run };

if (require.main === module) {
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
