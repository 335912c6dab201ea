/**
 * Hotel-group scale (issue 10): prints figures, asserts nothing. For each database (a temporary
 * SQLite file; a temporary PostgreSQL database when BENCH_SCALE_PG_URL answers) it starts the built
 * server once (schema, administrator), fills the scale set with `scripts/seed-scale.js`
 * (BENCH_SCALE_HOTELS hotels of 4,000 devices, default 250 = 1,000,000 devices; BENCH_SCALE_USERS,
 * default 100,000; BENCH_SCALE_OPERATIONS, default 0 here: the audit section fills its own), then
 * measures against a bare Fastify route measured in the same run:
 *
 * - lists: p50 for one client, req/s and p99 at 50 connections, and the CPU each request cost the
 *   server, PostgreSQL and the load generator (cpu-budget.js): their sum bounds what this machine
 *   allows, whatever the code;
 * - the heartbeat alone at 50 connections (with its CPU per request), then with 4 clients running "contains" searches, with
 *   the server's event-loop delay (prom-client) over each run; the heartbeats come from a tenth of
 *   the fleet in turn, so each flush writes thousands of rows and each lookup finds other devices;
 *   then the same devices in a random order (a fleet's real shape: each device keeps its own
 *   phase), whose flushes and lookups fall all over the table;
 * - the seeded offline sweep run by hand, once with 1% of the devices an hour quiet (the routine
 *   run over the whole fleet) and once with all of them (a mass outage), while one device keeps
 *   reporting in: the sweep's time, the slowest heartbeat meanwhile and the event loop's delay;
 *   then the floor under the mass outage: the same flags, history rows and alarms written by one
 *   statement each, unchunked and uncommitted (massOutageFloor);
 * - data scope (issue 26): the device list's page 1 and name search for a hotel-scoped caller
 *   (规模-本酒店, 4,000 devices) and a region-scoped one (规模-本区域, 25 hotels), both in the region
 *   of the searched hotel, each run twice alternating with the unscoped list (each scoped run
 *   between two unscoped ones) and given as a ratio of the means, against the target; and
 *   the heartbeat while scoped callers search, between two runs with unscoped searches (the
 *   heartbeat itself carries no scope: the figure shows their searches do not slow it);
 * - the mass outage behind gateways (a gateway per 50 devices): the sweep, the slowest heartbeat
 *   meanwhile, the alarms raised (causes and folded symptoms) and its floor (gatewayOutage);
 * - the server's peak RSS.
 * BENCH_SCALE_SECTIONS (default lists,heartbeat,sweep,gateways) picks parts; `scoped` alone runs the
 * scoped lists without the unscoped ones before them, and BENCH_SCALE_SCOPED_ROUNDS (default 2)
 * sets how many alternating rounds each scoped row takes.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const { withTemporaryPostgres, withTemporarySqlite } = require('./temporary-databases');
const { cpuMeter } = require('./cpu-budget');
const tools = require('./server');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const HOTELS = Number(process.env.BENCH_SCALE_HOTELS ?? 250);
const USERS = Number(process.env.BENCH_SCALE_USERS ?? 100_000);
const OPERATIONS = Number(process.env.BENCH_SCALE_OPERATIONS ?? 0);
const DATABASES = (process.env.BENCH_SCALE_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim());
/** Which parts to measure (comma-separated): lists, scoped (the scoped lists only: lists has them too), heartbeat, sweep, gateways. */
const SECTIONS = new Set((process.env.BENCH_SCALE_SECTIONS ?? 'lists,heartbeat,sweep,gateways').split(',').map((d) => d.trim()));
const PG_URL = process.env.BENCH_SCALE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const METRICS_TOKEN = 'bench-metrics-token';
const DEVICE_KEY = 'scale-device-key';
/** seed-scale.js's regions, role order and users' password (its default). */
const REGIONS = 10;
const ROLE_COUNT = 5;
const HOTEL_ROLE_INDEX = 2;
const USER_PASSWORD = 'Scale-Passw0rd';
/** How many times each scoped list runs, alternating with the unscoped one. */
const SCOPED_ROUNDS = Number(process.env.BENCH_SCALE_SCOPED_ROUNDS ?? 2);
/** The hotel the name searches look into (the last one when the set is smaller). */
const SEARCHED_HOTEL = Math.min(123, HOTELS);
const SEARCH_TERM = `酒店${String(SEARCHED_HOTEL).padStart(3, '0')}-8`;

/**
 * The seeded users who are scoped callers: one with 规模-本酒店 in the searched hotel (user n sits in
 * hotel (n - 1) % HOTELS + 1 and has role ((n - 1) / HOTELS) % 5), and the region user of that hotel's region.
 */
function scopedCallers() {
  let hotelUser = null;
  for (let n = REGIONS + 1; n <= USERS && hotelUser === null; n += 1) {
    if (((n - 1) % HOTELS) + 1 === SEARCHED_HOTEL && Math.floor((n - 1) / HOTELS) % ROLE_COUNT === HOTEL_ROLE_INDEX) hotelUser = n;
  }
  const regionUser = ((SEARCHED_HOTEL - 1) % REGIONS) + 1;
  const name = (n) => `scale${String(n).padStart(6, '0')}`;
  return { hotel: hotelUser === null ? null : name(hotelUser), region: name(regionUser) };
}

/** The same shuffle every run (mulberry32 from a fixed seed), so two runs send the same order. */
function shuffled(items, seed = 20261125) {
  const copy = [...items];
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** Resident memory of a process (MB), from /proc (Linux): `VmHWM` its peak so far, `VmRSS` now. */
function rss(pid, field = 'VmHWM') {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)[1]) / 1024;
}

/**
 * Straight in the database (the bench's own statements, the server running): runs each in turn on
 * one connection, and answers how long each took (s).
 */
async function runStatements(env, statements) {
  const seconds = [];
  const timed = async (run) => {
    const started = performance.now();
    await run();
    seconds.push((performance.now() - started) / 1000);
  };
  if (env.DATABASE_URL) {
    const { Client } = require('pg');
    const client = new Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    for (const statement of statements) await timed(() => client.query(statement));
    await client.end();
    return seconds;
  }
  const Database = require('better-sqlite3');
  const db = new Database(path.join(env.DATA_DIR, 'hotel.db'));
  db.pragma('busy_timeout = 10000');
  for (const statement of statements) await timed(() => db.exec(statement));
  db.close();
  return seconds;
}

/** The serial numbers of the enabled devices `where` selects, read straight from the database. */
async function serialNumbers(env, where) {
  const statement = `select sn from hotel_device where state = 1 and ${where} order by id`;
  if (env.DATABASE_URL) {
    const { Client } = require('pg');
    const client = new Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    const { rows } = await client.query(statement);
    await client.end();
    return rows.map((row) => row.sn);
  }
  const Database = require('better-sqlite3');
  const db = new Database(path.join(env.DATA_DIR, 'hotel.db'), { readonly: true });
  const rows = db.prepare(statement).all();
  db.close();
  return rows.map((row) => row.sn);
}

/**
 * Every device online; those `where` says last seen an hour ago, the rest just now. Then the
 * aftermath of rewriting a million rows is cleared before anything is measured (SQLite's log
 * checkpointed into the file, PostgreSQL's dead rows vacuumed): it is the bench's set-up, not a
 * load the product meets, and it fell on whatever was measured next.
 */
async function devicesQuietWhere(env, where) {
  const now = Date.now();
  const settle = env.DATABASE_URL ? 'vacuum analyze hotel_device_presence' : 'pragma wal_checkpoint(truncate)';
  await runStatements(env, [
    `update hotel_device_presence set online = 1, last_seen_at = ${now}`,
    `update hotel_device_presence set last_seen_at = ${now - 3_600_000} where ${where}`,
    settle,
  ]);
}

/**
 * The floor under the mass outage on this machine: the same work straight in the database, each
 * part in one statement over every device (no chunks, no pauses for other work, nothing returned),
 * in one transaction that is rolled back, so no commit is counted either. The sweep's 2 s target is
 * out of reach wherever these alone take longer. Set-up (not timed): every device online and quiet,
 * no active alarm. It leaves the database so: the sweep section's last step.
 */
async function massOutageFloor(env) {
  // The alarm the sweep raises, as the built server defines it.
  const { OFFLINE_ALARM } = require(path.join(root, 'dist/node/server/services/device-status/transitions.js'));
  const now = Date.now();
  await runStatements(env, [`update hotel_alarm set cleared_at = ${now} where cleared_at is null`, ...(env.DATABASE_URL ? ['vacuum analyze hotel_alarm'] : [])]);
  await devicesQuietWhere(env, '1 = 1');
  const parts = [
    ['flags', `update hotel_device_presence set online = 0, offline_since = ${now} where online = 1`],
    ['history rows', `insert into hotel_device_transition (device_id, online, at, cause) select id, 0, ${now}, 'sweep' from hotel_device_presence`],
    [
      'alarms',
      `insert into hotel_alarm (device_id, type, severity, message, started_at, last_at, count)
       select id, '${OFFLINE_ALARM.type}', '${OFFLINE_ALARM.severity}', '${OFFLINE_ALARM.message}', ${now}, ${now}, 1 from hotel_device_presence where true
       on conflict (device_id, type) where cleared_at is null do update set count = hotel_alarm.count + 1, last_at = excluded.last_at`,
    ],
  ];
  // One transaction, rolled back: the timings between its begin and its end.
  const seconds = (await runStatements(env, ['begin', ...parts.map(([, statement]) => statement), 'rollback'])).slice(1, -1);
  const total = seconds.reduce((sum, s) => sum + s, 0);
  const each = parts.map(([name], i) => `${name} ${seconds[i].toFixed(2)} s`).join(', ');
  console.log(`    floor: the same work in one statement per part, unchunked, uncommitted: ${total.toFixed(2)} s (${each})`);
}

/** The period of the timer behind the server's event-loop figures (metrics.ts EVENT_LOOP_MONITOR_MS). */
const EVENT_LOOP_MONITOR_MS = 10;

/**
 * The server's event-loop delay (ms) since its last reset, from its own metrics: p99 and max. The
 * metrics are intervals between the ticks of a 10 ms timer (an idle process reads 10), so the
 * delay is the interval minus 10; `text` says both.
 */
async function eventLoopDelay(base) {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const value = (name) => Number((text.split('\n').find((l) => l.startsWith(`hotel_nodejs_eventloop_lag_${name}_seconds `)) ?? ' NaN').split(' ')[1]) * 1000;
  const [p99, max] = [value('p99'), value('max')];
  const delay = { p99: p99 - EVENT_LOOP_MONITOR_MS, max: max - EVENT_LOOP_MONITOR_MS };
  return { ...delay, text: `event loop delay p99 ${delay.p99.toFixed(1)} ms, max ${delay.max.toFixed(0)} ms (10 ms timer's interval p99 ${p99.toFixed(1)} ms)` };
}

/**
 * Runs the offline sweep by hand while one device keeps reporting in, one heartbeat after another:
 * the slowest of those answers is how long the sweep held the heartbeats up.
 */
async function sweepWhileReporting(server, call, token, label, sn) {
  const schedules = await call(server.base, '/sys/schedule/inquire', { size: 100, current: 1 }, token);
  const sweep = schedules.records.find((s) => s.task === 'device.offlineSweep');
  const latencies = [];
  let reporting = true;
  let refused = 0;
  const reporter = (async () => {
    while (reporting) {
      const sent = performance.now();
      try {
        const response = await fetch(`${server.base}/hotel/device/heartbeat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-device-key': DEVICE_KEY },
          body: JSON.stringify({ sn }),
        });
        const { code, msg } = await response.json();
        latencies.push(performance.now() - sent);
        if (code !== 200) {
          refused += 1;
          if (refused === 1) console.log(`    a heartbeat was refused: ${code} ${msg}`);
        }
      } catch (error) {
        // Counted and shown, not fatal: the figure says the heartbeats failed.
        refused += 1;
        if (refused === 1) console.log(`    a heartbeat failed after ${((performance.now() - sent) / 1000).toFixed(1)} s: ${error.cause?.code ?? error.message}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  })();
  await eventLoopDelay(server.base);
  const started = performance.now();
  const log = await call(server.base, '/sys/schedule/run', { id: sweep.id }, token);
  const seconds = (performance.now() - started) / 1000;
  reporting = false;
  await reporter;
  const loop = await eventLoopDelay(server.base);
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? NaN;
  console.log(`  ${label}: ${seconds.toFixed(2)} s — ${log.message}`);
  console.log(`    meanwhile ${latencies.length} heartbeats (${refused} failed or refused), slowest ${latencies.at(-1)?.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms; ${loop.text}`);
  return { seconds, slowest: latencies.at(-1) ?? NaN };
}

/** One number a statement answers (its first column), read straight from the database. */
async function countOf(env, statement) {
  if (env.DATABASE_URL) {
    const { Client } = require('pg');
    const client = new Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    const { rows } = await client.query(statement);
    await client.end();
    return Number(Object.values(rows[0])[0]);
  }
  const Database = require('better-sqlite3');
  const db = new Database(path.join(env.DATA_DIR, 'hotel.db'), { readonly: true });
  const value = db.prepare(statement).pluck().get();
  db.close();
  return Number(value);
}

/**
 * The mass outage behind gateways (issue 27): every 50th device becomes a gateway of the 49 after
 * it (set-up, not timed), every device goes quiet, and the sweep runs while one device reports in.
 * Then the alarms it raised (causes: one per gateway; the children are symptoms) and its floor: the
 * same writes (flags, history rows, gateway alarms, symptom alarms) in one statement each,
 * unchunked and rolled back. Targets: within 1.5x the floor, no heartbeat held over 50 ms, at most
 * one alarm per gateway; where they are missed it says what would reach them (OUT_OF_REACH).
 */
async function gatewayOutage(env, server, call, token) {
  const { OFFLINE_ALARM, UNREACHABLE_MESSAGE } = require(path.join(root, 'dist/node/server/services/device-status/transitions.js'));
  const now = Date.now();
  await runStatements(env, [
    `update hotel_alarm set cleared_at = ${now} where cleared_at is null`,
    `update hotel_device set type = 'gateway', gateway_id = null where id % 50 = 1`,
    `update hotel_device set gateway_id = id - ((id - 1) % 50) where id % 50 <> 1`,
    ...(env.DATABASE_URL ? ['vacuum analyze hotel_alarm', 'vacuum analyze hotel_device'] : []),
  ]);
  const gateways = await countOf(env, `select count(*) from hotel_device where type = 'gateway'`);
  // The device reporting in meanwhile is a child (reporting for itself), not a gateway: a gateway
  // kept online would keep its children's alarms their own.
  const [child] = await serialNumbers(env, 'gateway_id is not null');
  await call(server.base, '/hotel/device/heartbeat', { sn: child }, undefined, { 'x-device-key': DEVICE_KEY });
  const devices = await countOf(env, 'select count(*) from hotel_device');
  await devicesQuietWhere(env, '1 = 1');
  const sweep = await sweepWhileReporting(server, call, token, `offline sweep behind ${gateways.toLocaleString('en')} gateways, every device quiet (mass outage)`, child);
  const causes = await countOf(env, 'select count(*) from hotel_alarm where cleared_at is null and cause_id is null');
  const symptoms = await countOf(env, 'select count(*) from hotel_alarm where cleared_at is null and cause_id is not null');
  console.log(
    `    alarms raised: ${causes.toLocaleString('en')} causes (${gateways.toLocaleString('en')} gateways among ${devices.toLocaleString('en')} devices; target at most one per gateway), ${symptoms.toLocaleString('en')} symptoms folded under them`,
  );

  const at = Date.now();
  await runStatements(env, [`update hotel_alarm set cleared_at = ${at} where cleared_at is null`, ...(env.DATABASE_URL ? ['vacuum analyze hotel_alarm'] : [])]);
  await devicesQuietWhere(env, '1 = 1');
  const { type, severity, message } = OFFLINE_ALARM;
  const parts = [
    ['flags', `update hotel_device_presence set online = 0, offline_since = ${at} where online = 1`],
    [
      'history rows',
      `insert into hotel_device_transition (device_id, online, at, cause) select id, 0, ${at}, case when gateway_id is null then 'sweep' else 'unreachable' end from hotel_device`,
    ],
    [
      'gateway alarms',
      `insert into hotel_alarm (device_id, type, severity, message, started_at, last_at, count)
       select id, '${type}', '${severity}', '${message}', ${at}, ${at}, 1 from hotel_device where type = 'gateway'
       on conflict (device_id, type) where cleared_at is null do update set count = hotel_alarm.count + 1, last_at = excluded.last_at`,
    ],
    [
      'symptom alarms',
      `insert into hotel_alarm (device_id, type, severity, message, started_at, last_at, count, cause_id)
       select c.id, '${type}', '${severity}', '${UNREACHABLE_MESSAGE}', ${at}, ${at}, 1, g.id
       from hotel_device c join hotel_alarm g on g.device_id = c.gateway_id and g.type = '${type}' and g.cleared_at is null where true
       on conflict (device_id, type) where cleared_at is null do update set count = hotel_alarm.count + 1, last_at = excluded.last_at`,
    ],
  ];
  const seconds = (await runStatements(env, ['begin', ...parts.map(([, statement]) => statement), 'rollback'])).slice(1, -1);
  const floor = seconds.reduce((sum, s) => sum + s, 0);
  const each = parts.map(([name], i) => `${name} ${seconds[i].toFixed(2)} s`).join(', ');
  console.log(`    floor: the same writes in one statement per part, unchunked, uncommitted: ${floor.toFixed(2)} s (${each})`);
  console.log(`    sweep / floor ${(sweep.seconds / floor).toFixed(2)}x (target ≤ 1.5x); slowest heartbeat ${sweep.slowest.toFixed(0)} ms (target ≤ 50 ms)`);
  if (sweep.seconds / floor > 1.5 || sweep.slowest > 50) console.log(`    ${OUT_OF_REACH}`);
}

/** What the gateway outage's targets would take where the product as built misses them (docs/architecture.md, the offline sweep). */
const OUT_OF_REACH =
  'out of reach as built: on SQLite the sweep commits a chunk every ~15 ms (a transaction holds the one connection and the event loop: that is how long a heartbeat waits), ' +
  'each chunk with its statements, events and commit and the heartbeats served between chunks, where the floor is one uncommitted pass per part; ' +
  "on PostgreSQL two chunks of ~400 ms run side by side, one per core, sharing the cores with the server and the heartbeats' reads. " +
  "The sweep's chunks on a connection of their own in a worker thread (SQLite) were tried: heartbeats answered meanwhile 12x, p99 25 -> 9 ms, " +
  'but the ratio the same (1.71x against 1.76x) and the slowest heartbeat no better (docs/architecture.md). ' +
  "Reaching the targets would take no symptom row per child (the gateway's alarm listing its children by a join when read: the symptom rows are half the floor), " +
  'a change in behaviour. The slowest heartbeat on a shared machine: no chunk holds the event loop over ~25 ms and the gateways are read off it (SQLite), ' +
  "so what is left is the process descheduled meanwhile, and on PostgreSQL the heartbeat's read waiting for a core.";

async function benchOne(name, env, { startServer, call, measure, blast, bareFigures }) {
  console.log(`\n== Scale on ${name}: ${(HOTELS * 4000).toLocaleString('en')} devices, ${USERS.toLocaleString('en')} users (${os.cpus().length} cores)`);
  const first = await startServer(env);
  await first.stop();
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
      console.log(
        `  ${label.padEnd(46)} ${figures.rps.toFixed(0).padStart(7)} req/s  p99 ${String(figures.p99).padStart(5)} ms  ${ratio(figures)}  errors ${figures.errors}  RSS peak ${rss(server.pid).toFixed(0)} MB`,
      );
    /** A load run with where its CPU went per request (the ceiling this machine puts on the figure). */
    const metered = async (run) => {
      const meter = cpuMeter(server.pid, { databaseUrl: env.DATABASE_URL });
      const figures = await run();
      return { ...figures, cpu: meter.perRequest(figures.requests).text };
    };
    const meteredRow = (label, figures) => {
      row(label, figures);
      if (figures.cpu) console.log(`    ${figures.cpu}`);
    };
    console.log(`  bare Fastify route${' '.repeat(29)}${bareFigures.rps.toFixed(0).padStart(7)} req/s  p99 ${String(bareFigures.p99).padStart(5)} ms`);
    if (bareFigures.cpu) console.log(`    ${bareFigures.cpu}`);

    // The device that reports in: a seeded one (its first heartbeat is answered, or this throws).
    const reporter = (await call(server.base, '/hotel/device/inquire', { size: 1, current: 1 }, token)).records[0].sn;
    await call(server.base, '/hotel/device/heartbeat', { sn: reporter }, undefined, { 'x-device-key': DEVICE_KEY });
    // What the pager sends stepping on from page 4,999: the id of the last row it showed.
    const lastOf = async (key, body) => (await call(server.base, key, body, token)).records.at(-1).id;
    const deviceAfter = SECTIONS.has('lists') ? await lastOf('/hotel/device/inquire', { size: 20, current: 4999 }) : 0;
    const userAfter = SECTIONS.has('lists') ? await lastOf('/sys/user/inquire', { size: 20, current: 4999 }) : 0;
    let searchTerm = 0;
    const lists = [
      ['device list, page 1', '/hotel/device/inquire', { size: 20, current: 1 }],
      ['device list, page 500 (offset 9,980)', '/hotel/device/inquire', { size: 20, current: 500 }],
      ['device list, page 5,000 (offset 99,980)', '/hotel/device/inquire', { size: 20, current: 5000 }],
      ['device list, page 5,000 stepped on (after)', '/hotel/device/inquire', { size: 20, current: 5000, after: deviceAfter }],
      ['device list, type', '/hotel/device/inquire', { size: 20, current: 1, params: { type: 'lock' } }],
      [`device list, name contains "${SEARCH_TERM}"`, '/hotel/device/inquire', { size: 20, current: 1, params: { name: SEARCH_TERM } }],
      ['device list, sn contains "00012"', '/hotel/device/inquire', { size: 20, current: 1, params: { sn: '00012' } }],
      // A different term each call (4 digits: a few hundred matches each), so nothing the server
      // remembers about an earlier search answers it.
      ['device list, sn contains a new 4-digit term each call', '/hotel/device/inquire', () => ({ size: 20, current: 1, params: { sn: String(1000 + (searchTerm++ % 9000)) } })],
      ['user list, page 1', '/sys/user/inquire', { size: 20, current: 1 }],
      ['user list, page 5,000 (offset 99,980)', '/sys/user/inquire', { size: 20, current: 5000 }],
      ['user list, page 5,000 stepped on (after)', '/sys/user/inquire', { size: 20, current: 5000, after: userAfter }],
      ['user list, name contains "e0123"', '/sys/user/inquire', { size: 20, current: 1, params: { userName: 'e0123' } }],
    ];
    // Scoped callers, signed in as seeded users.
    const names = scopedCallers();
    const signIn = async (userName) => (await call(server.base, '/sys/user/verify', { userName, password: USER_PASSWORD })).token;
    /** [label, token, the target: req/s at least this share of the unscoped list's] */
    const scopedTokens = [
      ...(names.hotel ? [[`hotel scope (${SEARCHED_HOTEL}: 4,000 devices)`, await signIn(names.hotel), 1.0]] : []),
      [`region scope (${Math.ceil(HOTELS / REGIONS)} hotels)`, await signIn(names.region), 0.8],
    ];
    for (const [label, key, body] of SECTIONS.has('lists') ? lists : []) {
      const bodyOf = typeof body === 'function' ? body : () => body;
      await measure(`  ${label} (1 client)`, 100, 1, () => call(server.base, key, bodyOf(), token));
      meteredRow(
        `${label} (50 conn.)`,
        await metered(() =>
          blast(`${server.base}${key}`, { headers: auth, body: JSON.stringify(bodyOf()), nextBody: typeof body === 'function' ? () => JSON.stringify(body()) : undefined }),
        ),
      );
    }

    const scopedLists = [
      ['device list, page 1', { size: 20, current: 1 }],
      [`device list, name contains "${SEARCH_TERM}"`, { size: 20, current: 1, params: { name: SEARCH_TERM } }],
    ];
    // Each scoped row is measured alternately with the unscoped one, twice, each scoped run between
    // two unscoped ones, and set against their mean: the machine's speed drifts by a fifth over a
    // run (docs/architecture.md, data scope), so only figures taken side by side compare.
    const listBlast = (body, bearer) => metered(() => blast(`${server.base}/hotel/device/inquire`, { headers: { authorization: `Bearer ${bearer}` }, body: JSON.stringify(body) }));
    const mean = (runs) => runs.reduce((sum, figures) => sum + figures.rps, 0) / runs.length;
    const missed = (ratio, target) => (ratio < target ? ' MISSED' : '');
    for (const [label, body] of SECTIONS.has('lists') || SECTIONS.has('scoped') ? scopedLists : []) {
      for (const [who, scopedToken, target] of scopedTokens) {
        await measure(`  ${label}, ${who} (1 client)`, 100, 1, () => call(server.base, '/hotel/device/inquire', body, scopedToken));
        const unscoped = [await listBlast(body, token)];
        const scoped = [];
        for (let round = 0; round < SCOPED_ROUNDS; round += 1) {
          scoped.push(await listBlast(body, scopedToken));
          unscoped.push(await listBlast(body, token));
        }
        unscoped.forEach((figures, i) => meteredRow(`${label}, unscoped, run ${i + 1} (50 conn.)`, figures));
        scoped.forEach((figures, i) => meteredRow(`${label}, ${who}, run ${i + 1} (50 conn.)`, figures));
        const beside = mean(scoped) / mean(unscoped);
        // Each round's own ratio (against the two unscoped runs around it): how far the runs' spread carries the figure.
        const rounds = scoped.map((figures, i) => figures.rps / mean([unscoped[i], unscoped[i + 1]]));
        const spread = `rounds ${Math.min(...rounds).toFixed(2)}-${Math.max(...rounds).toFixed(2)}x`;
        console.log(`    ${who} / unscoped beside it: ${beside.toFixed(2)}x (${spread}; target ≥ ${target.toFixed(1)}x)${missed(beside, target)}`);
      }
    }

    if (SECTIONS.has('heartbeat')) {
      // A fleet's shape: every heartbeat from another device (a tenth of the fleet, all online), so
      // each flush writes as many rows as heartbeats came in and the heartbeats that arrive
      // together look up as many devices as there are heartbeats.
      await devicesQuietWhere(env, '1 = 0');
      const fleet = await serialNumbers(env, 'id % 10 = 0');
      const heartbeat = (order = fleet) => {
        let next = 0;
        const body = () => JSON.stringify({ sn: order[next++ % order.length] });
        return blast(`${server.base}/hotel/device/heartbeat`, { headers: { 'x-device-key': DEVICE_KEY }, body: body(), nextBody: body });
      };
      // The set-up's UPDATE of every device held the database; the delay counts from here.
      await eventLoopDelay(server.base);
      const alone = await metered(() => heartbeat());
      meteredRow(`heartbeat alone (${fleet.length.toLocaleString('en')} devices in turn)`, alone);
      console.log(`  during the run: ${(await eventLoopDelay(server.base)).text}`);
      meteredRow(`heartbeat alone (same devices, random order)`, await metered(() => heartbeat(shuffled(fleet))));
      console.log(`  during the run: ${(await eventLoopDelay(server.base)).text}`);
      // Four staff searching while the devices report in, as `tokens` (one per client, in turn).
      const whileSearching = async (tokens) => {
        let searching = true;
        let searched = 0;
        const searches = Array.from({ length: 4 }, async (_, client) => {
          for (let i = 0; searching; i += 1, searched += 1) {
            const params = i % 2 === 0 ? { name: `酒店${String((client * 37 + i) % HOTELS).padStart(3, '0')}-1` } : { sn: `0${(client * 7919 + i) % 100000}` };
            await call(
              server.base,
              i % 4 === 3 ? '/sys/user/inquire' : '/hotel/device/inquire',
              { size: 20, current: 1, params: i % 4 === 3 ? { userName: `e0${i % 1000}` } : params },
              tokens[client % tokens.length],
            );
          }
        });
        const figures = await heartbeat();
        searching = false;
        await Promise.all(searches);
        return { figures, searched };
      };
      const mixed = await whileSearching([token]);
      row('heartbeat with 4 clients searching', mixed.figures);
      // The searches are a closed loop: faster searches mean more of them beside the heartbeats.
      console.log(`  searches answered meanwhile: ${mixed.searched.toLocaleString('en')}`);
      console.log(`  heartbeat p99 with searches / alone: ${(mixed.figures.p99 / Math.max(alone.p99, 1)).toFixed(1)}x; ${(await eventLoopDelay(server.base)).text}`);
      // Between two runs with unscoped searches, as the scoped lists above.
      const scoped = await whileSearching(scopedTokens.map(([, scopedToken]) => scopedToken));
      row('heartbeat with 4 scoped clients searching', scoped.figures);
      console.log(`  searches answered meanwhile: ${scoped.searched.toLocaleString('en')}`);
      const mixedAfter = await whileSearching([token]);
      row('heartbeat with 4 clients searching, after', mixedAfter.figures);
      console.log(`  searches answered meanwhile: ${mixedAfter.searched.toLocaleString('en')}`);
      const beside = scoped.figures.rps / mean([mixed.figures, mixedAfter.figures]);
      console.log(
        `  heartbeat req/s with scoped searches / with unscoped searches beside it: ${(beside * 100).toFixed(1)}% (target ≥ 95%)${missed(beside, 0.95)}; ${(await eventLoopDelay(server.base)).text}`,
      );
    }
    if (SECTIONS.has('sweep')) {
      // The heartbeats above leave last-seen times held back for up to a flush interval (1 s): let
      // them land first, or a flush after the set-up below marks some quiet devices as just seen.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      // The routine sweep over the whole fleet: 1% (a few hotels' worth) went quiet an hour ago.
      await devicesQuietWhere(env, 'id % 100 = 0');
      await sweepWhileReporting(server, call, token, 'offline sweep, 1% of the devices quiet', reporter);
      // A mass outage: every device reported in an hour ago and then went quiet.
      await devicesQuietWhere(env, '1 = 1');
      await sweepWhileReporting(server, call, token, 'offline sweep, every device quiet (mass outage)', reporter);
      await massOutageFloor(env);
    }
    if (SECTIONS.has('gateways')) {
      // Last: it turns every 50th device into a gateway of the 49 after it.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await gatewayOutage(env, server, call, token);
    }
    console.log(`  server peak RSS ${rss(server.pid).toFixed(0)} MB (now ${rss(server.pid, 'VmRSS').toFixed(0)} MB)`);
  } finally {
    await server.stop();
  }
}

async function run() {
  if (process.env.BENCH_SCALE === '0') return;
  const bare = await tools.bareRoute();
  const meter = cpuMeter(bare.pid);
  const figures = await tools.blast(bare.url, { body: '{}' });
  const bareFigures = { ...figures, cpu: meter.perRequest(figures.requests).text };
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
