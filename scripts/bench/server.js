/**
 * The bench's tools (scripts/bench.js and its sections): the built server started on a free port
 * with a temporary database, a contract call, a latency measure at fixed concurrency, autocannon's
 * throughput, and a bare Fastify route to read figures against.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { SERVER_ARGS } = require('../server-command');

const root = path.resolve(__dirname, '../..');
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
    /** The SQLite database's directory (empty on PostgreSQL). */
    dataDir,
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

module.exports = { startServer, call, measure, blast, bareRoute };
