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
 * delivers to a local webhook receiver, and the delay from enqueue commit to delivery; and MQTT
 * heartbeat ingestion, single and as gateway batches, against a bare subscriber (scripts/bench/gateways-mqtt.js);
 * and the live event stream (scripts/bench/events.js): events per second delivered to 200 consoles,
 * the delay from an event's commit to each console, and the server's RSS with them connected.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { bareRoute, blast, call, measure, startServer } = require('./bench/server');

const root = path.resolve(__dirname, '..');
const DEVICES = Number(process.env.BENCH_DEVICES ?? 3000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

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
      const { token } = await call(server.base, '/sys/user/verify', { userName: 'admin', password: server.password });
      const { deviceKey } = await call(server.base, '/hotel/device/creation', { name: '压测门锁', sn: 'SN-LOG-0001', type: 'lock', state: 1, remark: '' }, token);
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
    const { token } = await call(server.base, '/sys/user/verify', { userName: 'admin', password: server.password });
    const types = ['lock', 'aircon', 'panel', 'gateway', 'tv'];
    await measure('create device (POST /hotel/device/creation)', DEVICES, CONCURRENCY, (i) =>
      call(server.base, '/hotel/device/creation', { name: `设备${i}`, sn: `SN-BENCH-${String(i).padStart(6, '0')}`, type: types[i % types.length], state: 1, remark: '' }, token),
    );
    await measure('sign in (argon2id)', 40, 4, () => call(server.base, '/sys/user/verify', { userName: 'admin', password: server.password }));
    await measure('GET /sys/menu/authority', REQUESTS, CONCURRENCY, () => call(server.base, 'GET /sys/menu/authority', null, token));
    await measure('device list, first page of 20', REQUESTS, CONCURRENCY, () => call(server.base, '/hotel/device/inquire', { size: 20, current: 1 }, token));
    await measure('device list, page 100', REQUESTS, CONCURRENCY, () => call(server.base, '/hotel/device/inquire', { size: 20, current: 100 }, token));
    await measure('device list, filtered by type', REQUESTS, CONCURRENCY, (i) =>
      call(server.base, '/hotel/device/inquire', { size: 20, current: 1, params: { type: types[i % 5] } }, token),
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
  await require('./bench/gateways-mqtt').run();
  await require('./bench/events').run();
  await require('./bench/scale').run();
  await require('./bench/audit').run();
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
