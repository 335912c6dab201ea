/**
 * Hotel-group scale (issue 10): prints figures, asserts nothing. For each database (a temporary
 * SQLite file; a temporary PostgreSQL database when BENCH_SCALE_PG_URL answers) it starts the built
 * server once (schema, administrator), fills the scale set with `scripts/seed-scale.js`
 * (BENCH_SCALE_HOTELS hotels of 4,000 devices, default 250 = 1,000,000 devices; BENCH_SCALE_USERS,
 * default 100,000; BENCH_SCALE_OPERATIONS, default 0 here: the audit section fills its own), then
 * measures against a bare Fastify route measured in the same run:
 *
 * - lists: p50 for one client, req/s and p99 at 50 connections;
 * - the heartbeat alone at 50 connections, then with 4 clients running "contains" searches, with
 *   the server's event-loop delay (prom-client) over each run;
 * - one offline sweep of every device (all made online and an hour quiet first, the seeded
 *   schedule run now) and the server's peak RSS.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const { withTemporaryPostgres, withTemporarySqlite } = require('./temporary-databases');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const HOTELS = Number(process.env.BENCH_SCALE_HOTELS ?? 250);
const USERS = Number(process.env.BENCH_SCALE_USERS ?? 100_000);
const OPERATIONS = Number(process.env.BENCH_SCALE_OPERATIONS ?? 0);
const DATABASES = (process.env.BENCH_SCALE_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const PG_URL = process.env.BENCH_SCALE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const METRICS_TOKEN = 'bench-metrics-token';
const DEVICE_KEY = 'scale-device-key';

/** The server's event-loop delay p99 (ms) since its last reset, from its own metrics. */
async function eventLoopP99(base) {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith('hotel_nodejs_eventloop_lag_p99_seconds '));
  return line ? Number(line.split(' ')[1]) * 1000 : NaN;
}

/** Peak resident memory of a process (MB), from /proc (Linux). */
function peakRss(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024;
}

/** Straight in the database (the bench's own): every device online, last seen an hour ago. */
async function everyDeviceStale(env) {
  const statement = `update hotel_device set online = 1, last_seen_at = ${Date.now() - 3_600_000}`;
  if (env.DATABASE_URL) {
    const { Client } = require('pg');
    const client = new Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    await client.query(statement);
    await client.end();
    return;
  }
  const Database = require('better-sqlite3');
  const db = new Database(path.join(env.DATA_DIR, 'hotel.db'));
  db.pragma('busy_timeout = 10000');
  db.exec(statement);
  db.close();
}

async function benchOne(name, env, { startServer, call, measure, blast, bareFigures }) {
  console.log(`\n== Scale on ${name}: ${(HOTELS * 4000).toLocaleString('en')} devices, ${USERS.toLocaleString('en')} users (${os.cpus().length} cores)`);
  const first = await startServer(env);
  first.stop();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const seeded = spawnSync(process.execPath, [path.join(root, 'scripts/seed-scale.js')], {
    cwd: root,
    env: { ...process.env, ...env, SCALE_HOTELS: String(HOTELS), SCALE_USERS: String(USERS), SCALE_OPERATIONS: String(OPERATIONS), SCALE_DEVICE_KEY: DEVICE_KEY },
    encoding: 'utf8',
  });
  process.stdout.write(seeded.stdout.replace(/^/gm, '  '));
  if (seeded.status !== 0) throw new Error(`seed:scale failed: ${seeded.stderr}`);

  const server = await startServer({ ...env, METRICS_TOKEN });
  try {
    const { token } = await call(server.base, '/sys/user/verify', { userName: 'admin', password: server.password });
    const auth = { authorization: `Bearer ${token}` };
    const ratio = (figures) => `${((figures.rps / bareFigures.rps) * 100).toFixed(1).padStart(5)}% of bare`;
    const row = (label, figures) =>
      console.log(`  ${label.padEnd(46)} ${figures.rps.toFixed(0).padStart(7)} req/s  p99 ${String(figures.p99).padStart(5)} ms  ${ratio(figures)}  errors ${figures.errors}`);
    console.log(`  bare Fastify route${' '.repeat(29)}${bareFigures.rps.toFixed(0).padStart(7)} req/s  p99 ${String(bareFigures.p99).padStart(5)} ms`);

    const lists = [
      ['device list, page 1', '/hotel/device/inquire', { size: 20, current: 1 }],
      ['device list, page 500 (offset 9,980)', '/hotel/device/inquire', { size: 20, current: 500 }],
      ['device list, page 5,000 (offset 99,980)', '/hotel/device/inquire', { size: 20, current: 5000 }],
      ['device list, type + room', '/hotel/device/inquire', { size: 20, current: 1, params: { type: 'lock', roomNo: '812' } }],
      ['device list, name contains "酒店123-8"', '/hotel/device/inquire', { size: 20, current: 1, params: { name: '酒店123-8' } }],
      ['device list, sn contains "00012"', '/hotel/device/inquire', { size: 20, current: 1, params: { sn: '00012' } }],
      ['user list, page 1', '/sys/user/inquire', { size: 20, current: 1 }],
      ['user list, name contains "e0123"', '/sys/user/inquire', { size: 20, current: 1, params: { userName: 'e0123' } }],
    ];
    for (const [label, key, body] of lists) {
      await measure(`  ${label} (1 client)`, 100, 1, () => call(server.base, key, body, token));
      row(`${label} (50 conn.)`, await blast(`${server.base}${key}`, { headers: auth, body: JSON.stringify(body) }));
    }

    const heartbeat = () => blast(`${server.base}/hotel/device/heartbeat`, { headers: { 'x-device-key': DEVICE_KEY }, body: JSON.stringify({ sn: 'SC000000424' }) });
    await eventLoopP99(server.base);
    const alone = await heartbeat();
    row('heartbeat alone', alone);
    console.log(`  event loop p99 during the run: ${(await eventLoopP99(server.base)).toFixed(1)} ms`);
    // Four staff searching while the devices report in.
    let searching = true;
    const searches = Array.from({ length: 4 }, async (_, client) => {
      for (let i = 0; searching; i += 1) {
        const params = i % 2 === 0 ? { name: `酒店${String((client * 37 + i) % HOTELS).padStart(3, '0')}-1` } : { sn: `0${(client * 7919 + i) % 100000}` };
        await call(
          server.base,
          i % 4 === 3 ? '/sys/user/inquire' : '/hotel/device/inquire',
          { size: 20, current: 1, params: i % 4 === 3 ? { userName: `e0${i % 1000}` } : params },
          token,
        );
      }
    });
    const mixed = await heartbeat();
    searching = false;
    await Promise.all(searches);
    row('heartbeat with 4 clients searching', mixed);
    console.log(`  heartbeat p99 with searches / alone: ${(mixed.p99 / Math.max(alone.p99, 1)).toFixed(1)}x; event loop p99 ${(await eventLoopP99(server.base)).toFixed(1)} ms`);

    // Every device reported in an hour ago and then went quiet: the sweep takes them all offline.
    await everyDeviceStale(env);
    const schedules = await call(server.base, '/sys/schedule/inquire', { size: 100, current: 1 }, token);
    const sweep = schedules.records.find((s) => s.task === 'device.offlineSweep');
    const started = Date.now();
    const log = await call(server.base, '/sys/schedule/run', { id: sweep.id }, token);
    console.log(`  offline sweep: ${((Date.now() - started) / 1000).toFixed(1)} s — ${log.message}`);
    console.log(`  server peak RSS ${peakRss(server.pid).toFixed(0)} MB`);
  } finally {
    server.stop();
  }
}

async function run(tools) {
  if (process.env.BENCH_SCALE === '0') return;
  const bare = await tools.bareRoute();
  const bareFigures = await tools.blast(bare.url, { body: '{}' });
  bare.stop();
  const withBare = { ...tools, bareFigures };
  if (DATABASES.includes('sqlite')) {
    await withTemporarySqlite('hotel-bench-scale', (dir) => benchOne('SQLite', { DATA_DIR: dir, DATABASE_URL: '' }, withBare));
  }
  if (DATABASES.includes('postgres')) {
    await withTemporaryPostgres(PG_URL, 'hotel_bench_scale', 'Scale', (url) => benchOne('PostgreSQL', { DATABASE_URL: url }, withBare));
  }
}

module.exports = { run };
