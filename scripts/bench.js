#!/usr/bin/env node
/**
 * `npm run bench`: prints figures, asserts nothing.
 * 1. Bundle: gzip size of the login route and of every chunk (needs `npm run build` first).
 * 2. API: starts the built server on a free port with a temporary database (SQLite, or
 *    PostgreSQL when BENCH_DATABASE_URL is set), creates BENCH_DEVICES devices, then measures
 *    latency and throughput of typical calls with a fixed number of requests at a fixed concurrency.
 * 3. Hot-path logging: the heartbeat with request lines at warn and at info, against a bare route.
 * 4. Scale (scripts/bench/scale.js): 1M devices and 100k users on SQLite and PostgreSQL, lists,
 *    heartbeats alone and beside searches, the offline sweep, RSS (BENCH_SCALE=0 skips it).
 * 5. Audit log (scripts/bench/audit.js): 5M operation records.
 * Before the scale section, notifications (scripts/bench/notify.js): messages per second the outbox
 * delivers to a local webhook receiver, and the delay from enqueue commit to delivery.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { SERVER_ARGS } = require('./server-command');

const root = path.resolve(__dirname, '..');
const DEVICES = Number(process.env.BENCH_DEVICES ?? 3000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const PASSWORD = 'Bench-Hotel-Passw0rd';

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startServer(extraEnv = {}) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-bench-'));
  const child = spawn(process.execPath, SERVER_ARGS, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: PASSWORD,
      SCHEDULER: 'off',
      LOG_LEVEL: 'warn',
      DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
      LOGIN_USER_MAX_FAILURES: '1000',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    // Drained to the end: with info logging the server writes a line per request to this pipe.
    // Errors the server logs are shown: a figure from a server that failed meanwhile is no figure.
    child.stdout.on('data', (chunk) => {
      const text = String(chunk);
      if (text.includes('已启动')) resolve();
      for (const line of text.split('\n')) if (/"level":(50|60)/.test(line)) process.stderr.write(`server: ${line}\n`);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    base: `http://127.0.0.1:${port}/api`,
    pid: child.pid,
    password: PASSWORD,
    /** Resolves once the server has exited (its last flush done), so its database can go. */
    stop: () => {
      const exited = child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : Promise.resolve();
      child.kill('SIGTERM');
      return exited.then(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    },
  };
}

async function call(base, key, body, token, headers = {}) {
  const isGet = key.startsWith('GET ');
  const url = `${base}${key.replace(/^GET /, '')}`;
  const response = await fetch(url, {
    method: isGet ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: isGet ? undefined : JSON.stringify(body ?? {}),
  });
  const envelope = await response.json();
  if (envelope.code !== 200) throw new Error(`${key}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

async function measure(label, requests, concurrency, makeRequest) {
  const latencies = [];
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        const index = next++;
        const t0 = process.hrtime.bigint();
        await makeRequest(index);
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
  console.log(
    `${label.padEnd(44)} ${String(requests).padStart(5)} req  ${(requests / seconds).toFixed(0).padStart(6)} req/s  p50 ${pct(50).padStart(6)} ms  p95 ${pct(95).padStart(6)} ms  p99 ${pct(99).padStart(6)} ms`,
  );
}

/**
 * autocannon for a few seconds at 50 connections: requests per second and latency p99. The product
 * answers a refusal with HTTP 200 and its code in the envelope, so every answer whose envelope is
 * not code 200 counts as an error (a figure of refusals is no figure).
 */
/**
 * `body` is sent as it is; or `nextBody()` makes each request's body (a different search each
 * call, so nothing the server remembers answers it).
 */
function blast(url, { headers = {}, body, nextBody } = {}) {
  const autocannon = require('autocannon');
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        ...(nextBody ? { requests: [{ setupRequest: (request) => ({ ...request, body: nextBody() }) }] } : {}),
        connections: 50,
        duration: Number(process.env.BENCH_BLAST_SECONDS ?? 5),
        verifyBody: (text) => text.startsWith('{"code":200,'),
      },
      (error, result) =>
        error
          ? reject(error)
          : resolve({ rps: result.requests.average, p99: result.latency.p99, requests: result.requests.total, errors: result.errors + result.non2xx + result.mismatches }),
    ),
  );
}

/** A bare Fastify route in a process of its own: the ceiling the heartbeat figures are read against. */
async function bareRoute() {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const app = require('fastify')(); app.post('/bare', async () => ({ code: 200, msg: 'ok', data: null })); app.listen({ port: ${port}, host: '127.0.0.1' }).then(() => console.log('ready'));`,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return { url: `http://127.0.0.1:${port}/bare`, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

/**
 * What logging every heartbeat's request lines at info would cost: the product logs hot paths at
 * HOT_PATH_LOG_LEVEL (default warn). Same device, same load, the two settings side by side.
 */
async function hotPathLogging() {
  console.log('\n== Request logging on the hot path (device heartbeat, LOG_LEVEL=info, 50 connections)');
  const bare = await bareRoute();
  const bareFigures = await blast(bare.url, { body: '{}' });
  bare.stop();
  const row = (label, figures) =>
    console.log(
      `${label.padEnd(52)} ${figures.rps.toFixed(0).padStart(7)} req/s  p99 ${String(figures.p99).padStart(4)} ms  ${((figures.rps / bareFigures.rps) * 100).toFixed(0).padStart(3)}% of bare  errors ${figures.errors}`,
    );
  row('bare Fastify route', bareFigures);
  for (const [label, level] of [
    ['heartbeat, request lines at warn (default)', 'warn'],
    ['heartbeat, request lines at info', 'info'],
  ]) {
    const server = await startServer({ LOG_LEVEL: 'info', HOT_PATH_LOG_LEVEL: level });
    try {
      const { token } = await call(server.base, '/sys/user/verify', { userName: 'admin', password: PASSWORD });
      const { deviceKey } = await call(server.base, '/hotel/device/creation', { name: '压测门锁', sn: 'SN-LOG-0001', type: 'lock', roomNo: '0101', state: 1, remark: '' }, token);
      row(label, await blast(`${server.base}/hotel/device/heartbeat`, { headers: { 'x-device-key': deviceKey }, body: JSON.stringify({ sn: 'SN-LOG-0001' }) }));
    } finally {
      await server.stop();
    }
  }
}

async function main() {
  console.log('== Bundle (gzip)');
  if (fs.existsSync(path.join(root, 'dist/client/index.html'))) {
    spawnSync(process.execPath, [path.join(__dirname, 'bundle-report.js')], { stdio: 'inherit', cwd: root });
  } else {
    console.log('dist/client missing: run `npm run build` first');
  }
  if (!fs.existsSync(path.join(root, 'dist/node/server/main.js'))) {
    console.log('dist/node missing: run `npm run build` first');
    return;
  }

  console.log(`\n== API (${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, ${DEVICES} devices, concurrency ${CONCURRENCY}, ${os.cpus().length} cores)`);
  const server = await startServer();
  try {
    const { token } = await call(server.base, '/sys/user/verify', { userName: 'admin', password: PASSWORD });
    const types = ['lock', 'aircon', 'panel', 'gateway', 'tv'];
    await measure('create device (POST /hotel/device/creation)', DEVICES, CONCURRENCY, (i) =>
      call(
        server.base,
        '/hotel/device/creation',
        { name: `设备${i}`, sn: `SN-BENCH-${String(i).padStart(6, '0')}`, type: types[i % types.length], roomNo: String(1000 + (i % 500)), state: 1, remark: '' },
        token,
      ),
    );
    await measure('sign in (argon2id)', 40, 4, () => call(server.base, '/sys/user/verify', { userName: 'admin', password: PASSWORD }));
    await measure('GET /sys/menu/authority', REQUESTS, CONCURRENCY, () => call(server.base, 'GET /sys/menu/authority', null, token));
    await measure('device list, first page of 20', REQUESTS, CONCURRENCY, () => call(server.base, '/hotel/device/inquire', { size: 20, current: 1 }, token));
    await measure('device list, page 100', REQUESTS, CONCURRENCY, () => call(server.base, '/hotel/device/inquire', { size: 20, current: 100 }, token));
    await measure('device list, filtered by type + room', REQUESTS, CONCURRENCY, (i) =>
      call(server.base, '/hotel/device/inquire', { size: 20, current: 1, params: { type: types[i % 5], roomNo: String(1000 + (i % 500)) } }, token),
    );
    await measure('device list, name contains', REQUESTS, CONCURRENCY, (i) =>
      call(server.base, '/hotel/device/inquire', { size: 20, current: 1, params: { name: `设备${i % 100}` } }, token),
    );
    await measure('panel figures', REQUESTS, CONCURRENCY, () => call(server.base, '/sys/panel/inquire', {}, token));
    await measure('user list', REQUESTS, CONCURRENCY, () => call(server.base, '/sys/user/inquire', { size: 20, current: 1 }, token));
  } finally {
    await server.stop();
  }
  await hotPathLogging();
  await require('./bench/notify').run();
  await require('./bench/scale').run({ startServer, call, measure, blast, bareRoute });
  await require('./bench/audit').run();
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

module.exports = { hotPathLogging, startServer, call, measure, blast, bareRoute };
