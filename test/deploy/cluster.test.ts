/**
 * Issue 13: three built product instances on one PostgreSQL database behind Debian's nginx,
 * configured by the committed deploy/nginx/hotel.conf (ports rewritten). Driven through nginx:
 * sessions, logout and force logout seen by every instance; a schedule every second for 30 s run
 * exactly once per tick across the three; a rolling restart under a steady stream of requests
 * with zero failed requests. Needs `npm run build` (dist/), nginx and TEST_DATABASE_URL; run by
 * `npm test` after the build (scripts/run-tests.js).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createPostgresDatabase, type PostgresDatabase } from '../support/postgres-database';
import { freePort } from './support';
import { SERVER_ARGS } from '../../scripts/server-command';
import { openStream } from '../server/support/sse-client';

const root = path.resolve(__dirname, '../..');
const ADMIN_PASSWORD = 'Cluster-Hotel-Passw0rd';
const SCHEDULE_SECONDS = 30;

jest.setTimeout(300_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Instance {
  name: string;
  port: number;
  child?: ChildProcess;
}

let database: PostgresDatabase;
let workDir: string;
let nginx: ChildProcess;
let entry: string;
const instances: Instance[] = [];

function start(instance: Instance): Promise<void> {
  const child = spawn(process.execPath, [...SERVER_ARGS], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(instance.port),
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      ADMIN_PASSWORD,
      INSTANCE_ID: instance.name,
      TRUST_PROXY: '1',
      SCHEDULER_TICK_MS: '200',
      LOG_LEVEL: 'warn',
      CLIENT_DIR: path.join(root, 'dist/client'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  instance.child = child;
  child.stderr.on('data', (chunk) => process.stderr.write(`[${instance.name}] ${chunk}`));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => String(chunk).includes('已启动') && resolve());
    child.once('exit', (code) => reject(new Error(`instance ${instance.name} exited with ${code} while starting`)));
  });
}

/** SIGTERM and wait for the process to end: the graceful shutdown under test. */
function stop(instance: Instance): Promise<number | null> {
  const child = instance.child!;
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

async function call<T = unknown>(base: string, url: string, body?: unknown, token?: string): Promise<{ status: number; code: number; msg: string; data: T }> {
  const response = await fetch(`${base}${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let envelope: { code: number; msg: string; data: T };
  try {
    envelope = JSON.parse(text);
  } catch {
    envelope = { code: -1, msg: text.slice(0, 200), data: null as T };
  }
  return { status: response.status, ...envelope };
}

const direct = (instance: Instance) => `http://127.0.0.1:${instance.port}/api`;

async function signIn(userName: string, password: string): Promise<string> {
  const answer = await call<{ token: string }>(entry, '/sys/user/verify', { userName, password });
  if (answer.code !== 200) throw new Error(`sign-in of ${userName} failed: ${answer.code} ${answer.msg}`);
  return answer.data.token;
}

/** What each instance answers a session-level call with this token. */
const codesOnEveryInstance = (token: string) => Promise.all(instances.map(async (instance) => (await call(direct(instance), '/sys/menu/authority', undefined, token)).code));

beforeAll(async () => {
  database = await createPostgresDatabase('hotel_cluster');
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-cluster-'));
  for (const name of ['a', 'b', 'c']) instances.push({ name, port: await freePort() });
  // The first migrates and seeds; the others find the database ready.
  await start(instances[0]);
  await Promise.all(instances.slice(1).map(start));

  const nginxPort = await freePort();
  let site = fs.readFileSync(path.join(root, 'deploy/nginx/hotel.conf'), 'utf8');
  site = site.replace(/listen 80;/, `listen 127.0.0.1:${nginxPort};`);
  instances.forEach((instance, index) => {
    site = site.replace(`127.0.0.1:${8081 + index} `, `127.0.0.1:${instance.port} `);
  });
  expect(instances.every((instance) => site.includes(`127.0.0.1:${instance.port} `))).toBe(true);
  fs.writeFileSync(path.join(workDir, 'hotel.conf'), site);
  fs.writeFileSync(
    path.join(workDir, 'nginx.conf'),
    [
      ...(process.getuid?.() === 0 ? ['user root;'] : []),
      'worker_processes 1;',
      `pid ${workDir}/nginx.pid;`,
      `error_log ${workDir}/error.log warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${workDir}/${kind};`),
      `  include ${workDir}/hotel.conf;`,
      '}',
    ].join('\n'),
  );
  nginx = spawn(process.env.NGINX_PATH || 'nginx', ['-p', workDir, '-c', path.join(workDir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'inherit' });
  entry = `http://127.0.0.1:${nginxPort}/api`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      if ((await call(entry, '/healthz')).code === 200) break;
    } catch {
      // nginx not listening yet
    }
    if (attempt > 100) throw new Error(`nginx did not answer; see ${workDir}/error.log`);
    await sleep(100);
  }
});

afterAll(async () => {
  nginx?.kill('SIGTERM');
  await Promise.all(instances.filter((instance) => instance.child && instance.child.exitCode === null).map(stop));
  await database?.drop();
});

it('balances across all three instances', async () => {
  const seen = new Set<string>();
  for (let i = 0; i < 30; i += 1) seen.add((await call<{ instance: string }>(entry, '/healthz')).data.instance);
  expect([...seen].sort()).toEqual(['a', 'b', 'c']);
});

it('a session signed in through nginx works on every instance, and logout ends it on every instance', async () => {
  const token = await signIn('admin', ADMIN_PASSWORD);
  expect(await codesOnEveryInstance(token)).toEqual([200, 200, 200]);
  expect((await call(entry, '/sys/user/logout', {}, token)).code).toBe(200);
  expect(await codesOnEveryInstance(token)).toEqual([401, 401, 401]);
});

it('a force logout from 在线用户 ends the session on every instance', async () => {
  const admin = await signIn('admin', ADMIN_PASSWORD);
  // A user needs a role to sign in: the built-in administrator role will do here.
  const roles = await call<{ records: Array<{ id: number; builtin: number }> }>(entry, '/sys/role/inquire', { current: 1, size: 10, params: {} }, admin);
  const builtin = roles.data.records.find((role) => role.builtin === 1)!;
  const created = await call(entry, '/sys/user/creation', { userName: 'cluster.clerk', nickName: '前台', password: 'Clerk-Passw0rd-1', state: 1, roleId: builtin.id }, admin);
  expect(created.code).toBe(200);
  const clerk = await signIn('cluster.clerk', 'Clerk-Passw0rd-1');
  expect(await codesOnEveryInstance(clerk)).toEqual([200, 200, 200]);

  const online = await call<{ records: Array<{ sessionId: number; userName: string }> }>(
    entry,
    '/monitor/online/inquire',
    { current: 1, size: 50, params: { userName: 'cluster.clerk' } },
    admin,
  );
  const session = online.data.records.find((record) => record.userName === 'cluster.clerk')!;
  expect((await call(entry, '/monitor/online/revoke', { sessionId: session.sessionId }, admin)).code).toBe(200);
  expect(await codesOnEveryInstance(clerk)).toEqual([401, 401, 401]);
});

it('a live event raised on instance A reaches consoles connected to instance C and through nginx at once', async () => {
  const admin = await signIn('admin', ADMIN_PASSWORD);
  const roles = await call<{ records: Array<{ id: number; builtin: number }> }>(entry, '/sys/role/inquire', { current: 1, size: 10, params: {} }, admin);
  const builtin = roles.data.records.find((role) => role.builtin === 1)!;
  expect((await call(entry, '/sys/user/creation', { userName: 'cluster.live', nickName: '值班', password: 'Clerk-Passw0rd-2', state: 1, roleId: builtin.id }, admin)).code).toBe(
    200,
  );
  const live = await signIn('cluster.live', 'Clerk-Passw0rd-2');
  // Tickets come through nginx (any instance) and are redeemed wherever the stream lands.
  const ticket = async () => (await call<{ ticket: string }>(entry, '/events/ticket', {}, live)).data.ticket;
  const onC = await openStream(`http://127.0.0.1:${instances[2].port}`, { ticket: await ticket() });
  const viaNginx = await openStream(entry.replace(/\/api$/, ''), { ticket: await ticket() });
  expect([onC.status, viaNginx.status]).toEqual([200, 200]);
  await Promise.all([onC, viaNginx].map((stream) => stream.next((event) => event.event === 'ready')));

  // Instance A ends the session: its event is in the shared outbox, NOTIFY wakes B and C.
  const online = await call<{ records: Array<{ sessionId: number; userName: string }> }>(
    direct(instances[0]),
    '/monitor/online/inquire',
    { current: 1, size: 50, params: { userName: 'cluster.live' } },
    admin,
  );
  const started = Date.now();
  expect((await call(direct(instances[0]), '/monitor/online/revoke', { sessionId: online.data.records[0].sessionId }, admin)).code).toBe(200);
  for (const stream of [onC, viaNginx]) {
    const ended = await stream.next((event) => event.event === 'session-ended', 3_000);
    expect(ended.data).toEqual({ reason: 'forced', msg: '被 admin 强制下线，请重新登录' });
    await stream.ended;
  }
  // Within the slow poll's period: the wake-up brought it, and nginx did not hold it back.
  expect(Date.now() - started).toBeLessThan(3_000);
});

it(`runs a schedule due every second exactly once per tick across the three, for ${SCHEDULE_SECONDS} s`, async () => {
  const admin = await signIn('admin', ADMIN_PASSWORD);
  const created = await call<{ id: number; version: number }>(
    entry,
    '/sys/schedule/creation',
    { name: '每秒任务', cron: '* * * * * *', task: 'session.purgeExpired', params: {}, state: 1, remark: '集群测试' },
    admin,
  );
  expect(created.code).toBe(200);
  await sleep(SCHEDULE_SECONDS * 1000);
  const stopped = await call(
    entry,
    '/sys/schedule/edit',
    { id: created.data.id, name: '每秒任务', cron: '* * * * * *', task: 'session.purgeExpired', params: {}, state: 0, remark: '集群测试', version: created.data.version },
    admin,
  );
  expect(stopped.code).toBe(200);
  await sleep(1500);

  const client = new Client({ connectionString: database.url });
  await client.connect();
  const { rows } = await client.query<{ planned: string; runs: string; instances: string }>(
    `SELECT planned_at AS planned, count(*) AS runs, string_agg(instance, ',') AS instances
       FROM sys_schedule_log WHERE schedule_id = $1 AND trigger = 'cron' GROUP BY planned_at ORDER BY planned_at`,
    [created.data.id],
  );
  await client.end();
  const planned = rows.map((row) => Number(row.planned));
  const twice = rows.filter((row) => Number(row.runs) !== 1);
  const byInstance: Record<string, number> = {};
  for (const row of rows) for (const name of row.instances.split(',')) byInstance[name] = (byInstance[name] ?? 0) + 1;
  // Every second from the first run to the last, each exactly once.
  const missing =
    planned.length === 0 ? [] : Array.from({ length: (planned.at(-1)! - planned[0]) / 1000 + 1 }, (_, i) => planned[0] + i * 1000).filter((at) => !planned.includes(at));
  process.stdout.write(
    `exactly-once: ${planned.length} ticks in ${SCHEDULE_SECONDS} s, run twice: ${twice.length}, missed between first and last: ${missing.length}, by instance ${JSON.stringify(byInstance)}\n`,
  );
  expect(twice).toEqual([]);
  expect(missing).toEqual([]);
  expect(planned.length).toBeGreaterThanOrEqual(SCHEDULE_SECONDS - 2);
  expect(Object.keys(byInstance).length).toBeGreaterThan(1);
});

it('restarts the instances one at a time under a steady stream of requests with none failed', async () => {
  const admin = await signIn('admin', ADMIN_PASSWORD);
  let sent = 0;
  const failures: string[] = [];
  let running = true;
  // Eight clients, each one request after another: reads and a write-free POST inquiry.
  const client = async (id: number) => {
    while (running) {
      const answer =
        id % 2 === 0 ? await call(entry, '/sys/menu/authority', undefined, admin) : await call(entry, '/sys/dict/inquire', { current: 1, size: 20, params: {} }, admin);
      sent += 1;
      if (answer.status !== 200 || answer.code !== 200) failures.push(`HTTP ${answer.status} code ${answer.code} ${answer.msg}`);
    }
  };
  const clients = Array.from({ length: 8 }, (_, id) => client(id).catch((error: unknown) => void failures.push(String(error))));
  await sleep(1000);
  const restarts: string[] = [];
  for (const instance of instances) {
    const began = Date.now();
    const code = await stop(instance);
    await start(instance);
    restarts.push(`${instance.name}: exit ${code}, back in ${Date.now() - began} ms`);
    await sleep(1000);
  }
  running = false;
  await Promise.all(clients);
  process.stdout.write(`rolling restart: ${sent} requests, ${failures.length} failed (${restarts.join('; ')})\n`);
  expect(restarts.every((line) => line.includes('exit 0'))).toBe(true);
  expect(failures.slice(0, 5)).toEqual([]);
  expect(sent).toBeGreaterThan(100);
});
