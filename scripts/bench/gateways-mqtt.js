/**
 * MQTT heartbeat ingestion (issue 27): how fast the server takes heartbeats from the broker, single
 * (`<prefix>/device/<sn>/heartbeat`, one device a message) and as gateway batches
 * (`<prefix>/gateway/<sn>/heartbeat`, BENCH_MQTT_CHILDREN children a message), against a bare
 * mqtt.js subscriber on the same broker receiving the same number of messages (the ceiling the
 * broker and the client library put on any subscriber here). The server's rate counts heartbeats
 * it accepted (its own metric, read until every one sent is counted); a batch counts its children.
 * Targets: gateway batches at least 50 % of the bare subscriber's message rate (counting child
 * heartbeats), single heartbeats at least 25 %. Needs a broker (BENCH_MQTT_URL, default
 * mqtt://127.0.0.1:1883); skipped when none answers. BENCH_MQTT_MESSAGES sets the run's size.
 */
const { randomBytes } = require('node:crypto');
const { startServer, call } = require('./server');

const BROKER = process.env.BENCH_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const MESSAGES = Number(process.env.BENCH_MQTT_MESSAGES ?? 20_000);
const CHILDREN = Number(process.env.BENCH_MQTT_CHILDREN ?? 50);
const METRICS_TOKEN = 'bench-mqtt-metrics';
/** Messages the publisher may be ahead of the receiver, and how many it hands the client at once. */
const WINDOW = 500;
const STEP = 100;

/** Heartbeats the server accepted over MQTT so far (its counter). */
async function accepted(base) {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith('hotel_device_heartbeats_total{') && l.includes('transport="mqtt"') && l.includes('outcome="accepted"'));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

/** Polls until `done()` holds; answers the seconds since `started`. */
async function until(done, started, limitMs = 600_000) {
  for (;;) {
    if (await done()) return (performance.now() - started) / 1000;
    if (performance.now() - started > limitMs) throw new Error('ingestion did not finish within the limit');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Publishes `count` messages at QoS 1, at most WINDOW ahead of what the receiver has taken
 * (`progress()`, in messages): the broker queues a limited number of messages per subscriber
 * (mosquitto: 1000) and drops the rest, so an unpaced publisher measures the drops, not the receiver.
 */
async function publishPaced(client, count, topicOf, payloadOf, progress) {
  let sent = 0;
  while (sent < count) {
    if (sent - (await progress()) >= WINDOW) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      continue;
    }
    const upTo = Math.min(count, sent + STEP);
    const sends = [];
    for (; sent < upTo; sent += 1) sends.push(client.publishAsync(topicOf(sent), payloadOf(sent), { qos: 1 }));
    await Promise.all(sends);
  }
}

async function run() {
  const mqtt = require('mqtt');
  let publisher;
  try {
    publisher = await mqtt.connectAsync(BROKER, { clientId: `bench-pub-${randomBytes(4).toString('hex')}`, reconnectPeriod: 0, connectTimeout: 3000 });
  } catch (error) {
    console.log(`\n== MQTT ingestion: skipped (no broker at ${BROKER}: ${error.message})`);
    return;
  }
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  console.log(
    `\n== MQTT heartbeat ingestion (${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, ${MESSAGES.toLocaleString('en')} messages each, gateway batches of ${CHILDREN})`,
  );
  const server = await startServer({ MQTT_URL: BROKER, MQTT_TOPIC_PREFIX: prefix, METRICS_TOKEN });
  try {
    const { token } = await call(server.base, '/sys/user/verify', { userName: 'admin', password: server.password });
    const gateway = await call(server.base, '/hotel/device/creation', { name: '压测网关', sn: 'BENCH-GW-01', type: 'gateway', state: 1, remark: '' }, token);
    const children = [];
    for (let i = 0; i < CHILDREN; i += 1) {
      const sn = `BENCH-GW-C${String(i).padStart(3, '0')}`;
      const created = await call(server.base, '/hotel/device/creation', { name: `压测子设备${i}`, sn, type: 'lock', state: 1, remark: '', gatewayId: gateway.device.id }, token);
      children.push({ sn, key: created.deviceKey });
    }
    // The server's subscription is in place once its first heartbeat counts.
    const warm = await accepted(server.base);
    await until(async () => {
      await publisher.publishAsync(`${prefix}/device/${children[0].sn}/heartbeat`, JSON.stringify({ key: children[0].key }), { qos: 1 });
      return (await accepted(server.base)) > warm;
    }, performance.now());

    // The bare subscriber: the same broker, the same message count and sizes.
    const bare = await mqtt.connectAsync(BROKER, { clientId: `bench-bare-${randomBytes(4).toString('hex')}`, reconnectPeriod: 0 });
    let received = 0;
    bare.on('message', () => (received += 1));
    await bare.subscribeAsync(`${prefix}-bare/device/+/heartbeat`, { qos: 1 });
    let started = performance.now();
    await publishPaced(
      publisher,
      MESSAGES,
      (i) => `${prefix}-bare/device/${children[i % CHILDREN].sn}/heartbeat`,
      (i) => JSON.stringify({ key: children[i % CHILDREN].key }),
      () => received,
    );
    const bareSeconds = await until(() => received >= MESSAGES, started);
    await bare.endAsync();
    const bareRate = MESSAGES / bareSeconds;

    let before = await accepted(server.base);
    started = performance.now();
    const singleBefore = before;
    await publishPaced(
      publisher,
      MESSAGES,
      (i) => `${prefix}/device/${children[i % CHILDREN].sn}/heartbeat`,
      (i) => JSON.stringify({ key: children[i % CHILDREN].key }),
      async () => (await accepted(server.base)) - singleBefore,
    );
    const singleSeconds = await until(async () => (await accepted(server.base)) >= before + MESSAGES, started);
    const singleRate = MESSAGES / singleSeconds;

    // The same child heartbeats as gateway batches: MESSAGES / CHILDREN messages of CHILDREN each
    // (each also the gateway's own heartbeat, which the counter counts and the rate does not).
    const batches = Math.max(1, Math.floor(MESSAGES / CHILDREN));
    const batch = JSON.stringify({ key: gateway.deviceKey, devices: children.map((child) => child.sn) });
    before = await accepted(server.base);
    started = performance.now();
    const batchBefore = before;
    await publishPaced(
      publisher,
      batches,
      () => `${prefix}/gateway/BENCH-GW-01/heartbeat`,
      () => batch,
      async () => Math.floor(((await accepted(server.base)) - batchBefore) / (CHILDREN + 1)),
    );
    const batchSeconds = await until(async () => (await accepted(server.base)) >= before + batches * (CHILDREN + 1), started);
    const batchRate = (batches * CHILDREN) / batchSeconds;

    const line = (label, rate, seconds, floor) =>
      console.log(
        `  ${label.padEnd(44)} ${rate.toFixed(0).padStart(7)} heartbeats/s  ${seconds.toFixed(2).padStart(6)} s  ${((rate / bareRate) * 100).toFixed(0).padStart(4)}% of bare${floor ? `  (target ≥ ${floor} %)` : ''}`,
      );
    console.log(`  bare mqtt.js subscriber${' '.repeat(21)} ${bareRate.toFixed(0).padStart(7)} messages/s    ${bareSeconds.toFixed(2).padStart(6)} s`);
    line('server, single heartbeats', singleRate, singleSeconds, 25);
    line(`server, gateway batches of ${CHILDREN} (child heartbeats)`, batchRate, batchSeconds, 50);
  } finally {
    await publisher.endAsync();
    await server.stop();
  }
}

module.exports = { run };

if (require.main === module) {
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
