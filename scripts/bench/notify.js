/**
 * Notification bench (issue 28): prints figures, asserts nothing. On SQLite and PostgreSQL, the
 * built app (dist/node) runs in this process with its delivery worker on, and a webhook receiver
 * with no vendor limit runs in a child process. Two figures:
 * - throughput: BENCH_NOTIFY_MESSAGES messages queued in one transaction (as a mass outage would),
 *   over 1 channel and over 8 (channels are sent to side by side), until the receiver has them all;
 * - delay: BENCH_NOTIFY_SAMPLES messages queued one per transaction, 20 ms apart, each woken
 *   after its commit as the alarm code does: from the commit to the receiver's arrival, p50/p99;
 *   then as many alarms raised one per transaction under a rule sending each to the webhook: the
 *   alarm's transaction leaves a marker, the worker expands it into the message and sends it;
 * - heartbeats during a storm of BENCH_NOTIFY_STORM alarms (one sweep), without and with a rule
 *   (the worker expanding the sweep's markers and delivering, paced, in the window).
 *
 * Needs `npm run build`. BENCH_NOTIFY_DATABASES=sqlite,postgres picks the databases;
 * BENCH_NOTIFY_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres) is where a temporary
 * database is created and dropped.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { withTemporaryPostgres, withTemporarySqlite } = require('./temporary-databases');

const root = path.resolve(__dirname, '../..');
const MESSAGES = Number(process.env.BENCH_NOTIFY_MESSAGES ?? 5000);
const SAMPLES = Number(process.env.BENCH_NOTIFY_SAMPLES ?? 300);
const DATABASES = (process.env.BENCH_NOTIFY_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim());
/** Devices that go offline in the storm's one sweep (as many alarms), and the clients reporting meanwhile. */
const STORM_DEVICES = Number(process.env.BENCH_NOTIFY_STORM ?? 10_000);
const HEARTBEAT_CLIENTS = 8;
const STORM_WINDOW_MS = 10_000;
const PG_URL = process.env.BENCH_NOTIFY_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Epoch ms with a fraction, comparable across processes. */
const RECEIVER = `
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    process.stdout.write(request.headers['x-hotel-message-id'] + ' ' + (performance.timeOrigin + performance.now()) + '\\n');
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
`;

async function startReceiver() {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const arrivals = new Map();
  const waiters = [];
  let buffered = '';
  const port = await new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) {
        const [first, second] = line.split(' ');
        if (first === 'port') resolve(Number(second));
        else arrivals.set(Number(first), Number(second));
      }
      for (const waiter of [...waiters]) waiter();
    });
  });
  /** Resolves once `count` messages have arrived in all. */
  const reached = (count) =>
    new Promise((resolve) => {
      const check = () => {
        if (arrivals.size < count) return;
        waiters.splice(waiters.indexOf(check), 1);
        resolve();
      };
      waiters.push(check);
      check();
    });
  return { url: `http://127.0.0.1:${port}/hook`, arrivals, reached, stop: () => child.kill('SIGTERM') };
}

const now = () => performance.timeOrigin + performance.now();
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function benchOne(name, env) {
  const { loadConfig, databaseOptionsOf } = require(path.join(root, 'dist/node/server/config.js'));
  const { openDatabase } = require(path.join(root, 'dist/node/server/db/connection.js'));
  const { buildApp, closeApp } = require(path.join(root, 'dist/node/server/app.js'));
  const { enqueueNotifications, startNotificationWorker } = require(path.join(root, 'dist/node/server/services/notification/index.js'));
  const { notifyAlarmEvent } = require(path.join(root, 'dist/node/server/services/notification/alarm-events.js'));

  console.log(`\n== Notifications on ${name}: webhook receiver with no vendor limit, worker in the app's process`);
  // NOTIFY_DELIVERY_SHARE_PERCENT=100 compares with delivery unpaced.
  const pacing = process.env.NOTIFY_DELIVERY_SHARE_PERCENT ? { NOTIFY_DELIVERY_SHARE_PERCENT: process.env.NOTIFY_DELIVERY_SHARE_PERCENT } : {};
  const config = { ...loadConfig({ ...env, ...pacing, NOTIFY_ALLOW_PRIVATE_TARGETS: '1', LOG_LEVEL: 'warn' }, root), clientDir: undefined };
  const database = await openDatabase(databaseOptionsOf(config));
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  // As main.ts starts it.
  const worker = startNotificationWorker(app);
  const receiver = await startReceiver();
  try {
    const stamp = Date.now();
    const channels = [];
    for (let i = 0; i < 8; i += 1) {
      const row = await database.db
        .insertInto('notifyChannel')
        .values({
          name: `压测 Webhook ${i + 1}`,
          type: 'webhook',
          config: JSON.stringify({ url: receiver.url }),
          state: 1,
          remark: '',
          healthAt: null,
          createdAt: stamp,
          updatedAt: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      channels.push(row.id);
    }
    const message = (channelId, n) => ({
      channelId,
      alarmId: n,
      kind: 'raise',
      title: `【严重】设备离线：压测设备 ${n}`,
      body: `- 设备：压测设备 ${n}\n- 时间：${new Date().toISOString()}`,
      link: `/hotel/alarm?id=${n}`,
    });
    let sent = 0;
    for (const [label, channelCount] of [
      ['1 channel', 1],
      ['8 channels', 8],
    ]) {
      const started = now();
      await database.db.transaction().execute((trx) =>
        enqueueNotifications(
          trx,
          Array.from({ length: MESSAGES }, (_, n) => message(channels[n % channelCount], n)),
        ),
      );
      app.notifications.wake();
      await receiver.reached(sent + MESSAGES);
      sent += MESSAGES;
      const seconds = (now() - started) / 1000;
      console.log(
        `  throughput, ${label.padEnd(10)} ${MESSAGES} messages queued in one transaction: ${(MESSAGES / seconds).toFixed(0).padStart(6)} messages/s (${seconds.toFixed(2)} s to the last)`,
      );
    }

    const committed = new Map();
    for (let n = 0; n < SAMPLES; n += 1) {
      const alarmId = 1_000_000 + n;
      await database.db.transaction().execute((trx) => enqueueNotifications(trx, [message(channels[n % channels.length], alarmId)]));
      const at = now();
      app.notifications.wake();
      const row = await database.db.selectFrom('notifyMessage').select('id').where('alarmId', '=', alarmId).executeTakeFirstOrThrow();
      committed.set(row.id, at);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await receiver.reached(sent + SAMPLES);
    const delays = [...committed].map(([id, at]) => receiver.arrivals.get(id) - at).sort((a, b) => a - b);
    console.log(
      `  delay from enqueue commit to delivery, ${SAMPLES} messages one at a time: p50 ${percentile(delays, 50).toFixed(1)} ms  p99 ${percentile(delays, 99).toFixed(1)} ms  max ${delays.at(-1).toFixed(1)} ms`,
    );
    sent += SAMPLES;

    const alarmDelays = await raiseOneByOne(app, database, { channelId: channels[0], receiver, sentBefore: sent, notifyAlarmEvent });
    console.log(
      `  delay from alarm commit to delivery, ${SAMPLES} alarms one at a time (marker, expansion, send): p50 ${percentile(alarmDelays, 50).toFixed(1)} ms  p99 ${percentile(alarmDelays, 99).toFixed(1)} ms  max ${alarmDelays.at(-1).toFixed(1)} ms`,
    );
    sent += SAMPLES;

    let floor = 0;
    for (const withRule of [false, true]) {
      const { delivered, rate } = await storm(app, database, { channelId: channels[0], withRule, receiver, sentBefore: sent, floor });
      sent += delivered;
      // Heartbeats must keep within 10 % of their rate without notifications.
      floor = rate * 0.9;
    }
  } finally {
    receiver.stop();
    await worker.stop();
    await closeApp(app, database);
  }
}

const benchRule = (name, stamp, channelId) => ({
  name,
  state: 1,
  alarmTypes: '[]',
  minSeverity: 'warning',
  locationId: null,
  symptoms: 1,
  channelIds: JSON.stringify([channelId]),
  quietStart: null,
  quietEnd: null,
  escalation: '[]',
  remark: '',
  createdAt: stamp,
  updatedAt: stamp,
});

/**
 * SAMPLES alarms raised one per transaction, 20 ms apart, as the alarm code raises them (the alarm
 * row and `notifyAlarmEvent` in one transaction, the worker woken after the commit), under a rule
 * sending each to the webhook: from each commit to its message's arrival, sorted.
 */
async function raiseOneByOne(app, database, { channelId, receiver, sentBefore, notifyAlarmEvent }) {
  const stamp = Date.now();
  const devices = await database.db
    .insertInto('hotelDevice')
    .values(
      Array.from({ length: SAMPLES }, (_, n) => ({
        name: `延迟设备 ${n}`,
        sn: `DELAY-${n}`,
        type: 'lock',
        locationId: null,
        state: 1,
        keyHash: 'x',
        remark: '',
        createdAt: stamp,
        updatedAt: stamp,
      })),
    )
    .returning('id')
    .execute();
  const rule = await database.db
    .insertInto('notifyRule')
    .values(benchRule('压测规则（延迟）', stamp, channelId))
    .returning('id')
    .executeTakeFirstOrThrow();
  // Earlier parts queued messages naming made-up alarm ids: only this part's messages count.
  const { last } = await database.db
    .selectFrom('notifyMessage')
    .select((eb) => eb.fn.max('id').as('last'))
    .executeTakeFirstOrThrow();
  const committed = new Map();
  for (const { id: deviceId } of devices) {
    const at = Date.now();
    await database.db.transaction().execute(async (trx) => {
      await trx.insertInto('hotelAlarm').values({ deviceId, type: 'offline', severity: 'major', message: '设备心跳超时，已离线', startedAt: at, lastAt: at, count: 1 }).execute();
      await notifyAlarmEvent(trx, database.dialect, { event: 'raise', type: 'offline', deviceIds: [deviceId], at });
    });
    committed.set(deviceId, now());
    app.notifications.wake();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await receiver.reached(sentBefore + SAMPLES);
  await database.db.updateTable('notifyRule').set({ state: 0 }).where('id', '=', rule.id).execute();
  const messages = await database.db
    .selectFrom('notifyMessage as m')
    .innerJoin('hotelAlarm as a', 'a.id', 'm.alarmId')
    .select(['m.id', 'a.deviceId'])
    .where('m.kind', '=', 'raise')
    .where('m.id', '>', Number(last ?? 0))
    .where(
      'a.deviceId',
      'in',
      devices.map((device) => device.id),
    )
    .execute();
  return messages.map((message) => receiver.arrivals.get(Number(message.id)) - committed.get(message.deviceId)).sort((a, b) => a - b);
}

/**
 * The heartbeat rate of this instance while STORM_DEVICES devices go offline in one sweep (as many
 * alarms), without a rule and with a rule sending each alarm to the webhook: HEARTBEAT_CLIENTS
 * in-process clients report for one device all along; the rate is counted over the same window from
 * the sweep's start in both runs (with the rule, the delivery runs in it). Heartbeats must keep
 * within 10 % of their rate without notifications.
 */
async function storm(app, database, { channelId, withRule, receiver, sentBefore, floor }) {
  const { runTask } = require(path.join(root, 'dist/node/server/services/scheduler/tasks.js'));
  const { createHash } = require('node:crypto');
  const key = 'bench-storm-device-key';
  const keyHash = createHash('sha256').update(key).digest('hex');
  const tag = withRule ? 'R' : 'N';
  const stamp = Date.now();
  const device = (sn) => ({ name: `风暴设备 ${sn}`, sn, type: 'lock', locationId: null, state: 1, keyHash, remark: '', createdAt: stamp, updatedAt: stamp });
  for (let start = 0; start < STORM_DEVICES; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, STORM_DEVICES - start) }, (_, n) => device(`STORM-${tag}-${start + n}`));
    await database.db.insertInto('hotelDevice').values(rows).execute();
  }
  await database.db
    .updateTable('hotelDevicePresence')
    .set({ online: 1, lastSeenAt: stamp - 10 * 60_000 })
    .where('id', 'in', database.db.selectFrom('hotelDevice').select('id').where('sn', 'like', `STORM-${tag}-%`))
    .execute();
  const live = `STORM-${tag}-LIVE`;
  await database.db.insertInto('hotelDevice').values(device(live)).execute();
  const rule = withRule
    ? await database.db
        .insertInto('notifyRule')
        .values(benchRule('压测规则', stamp, channelId))
        .returning('id')
        .executeTakeFirstOrThrow()
    : null;

  let beats = 0;
  let reporting = true;
  const report = async () => {
    while (reporting) {
      const response = await app.inject({ method: 'POST', url: '/api/hotel/device/heartbeat', headers: { 'x-device-key': key }, payload: { sn: live } });
      if (response.json().code === 200) beats += 1;
    }
  };
  const clients = Array.from({ length: HEARTBEAT_CLIENTS }, report);
  // Two seconds of warming up (the first run would otherwise count its JIT compiling against the
  // rate without notifications), then a second of reporting: the rate before the sweep.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const warm = beats;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const calm = beats - warm;
  const started = now();
  await runTask('device.offlineSweep', { minutes: 5 }, { app, now: Date.now() });
  const swept = now();
  // The same window in both runs: the sweep and what follows it (with the rule, the delivery).
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + STORM_WINDOW_MS - now())));
  const inWindow = beats - warm - calm;
  const windowEnd = now();
  if (withRule) await receiver.reached(sentBefore + STORM_DEVICES);
  const delivered = now();
  reporting = false;
  await Promise.all(clients);
  if (rule) await database.db.updateTable('notifyRule').set({ state: 0 }).where('id', '=', rule.id).execute();
  const rate = inWindow / ((windowEnd - started) / 1000);
  const verdict = withRule ? `; floor ${floor.toFixed(0)}/s (90 % of the rate without): ${rate >= floor ? 'kept' : 'BELOW'}` : '';
  console.log(
    `  heartbeats in the ${STORM_WINDOW_MS / 1000} s from a sweep raising ${STORM_DEVICES} alarms, ${withRule ? 'with a rule (each alarm to the webhook)' : 'without notifications     '}: ${rate.toFixed(0).padStart(5)}/s (sweep ${((swept - started) / 1000).toFixed(2)} s${withRule ? `, last message after ${((delivered - started) / 1000).toFixed(1)} s` : ''}; ${calm}/s in the second before${verdict})`,
  );
  return { delivered: withRule ? STORM_DEVICES : 0, rate };
}

async function run() {
  if (!fs.existsSync(path.join(root, 'dist/node/server/main.js'))) {
    console.log('\n== Notifications: dist/node missing, run `npm run build` first');
    return;
  }
  if (DATABASES.includes('sqlite')) await withTemporarySqlite('hotel-bench-notify', (dir) => benchOne('SQLite', { DATA_DIR: dir }));
  if (DATABASES.includes('postgres')) await withTemporaryPostgres(PG_URL, 'hotel_bench_notify', 'Notifications', (url) => benchOne('PostgreSQL', { DATABASE_URL: url }));
}

module.exports = { run };

if (require.main === module) {
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
