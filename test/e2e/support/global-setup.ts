/**
 * Starts the product from the built dist/ on a free port with a fresh data directory, and waits
 * until it answers. It does not build: `npm run test:e2e` builds first, and building here would
 * double the slowest step on a 2-core machine.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { SERVER_ARGS, SERVER_MAIN } from '../../../scripts/server-command';
import { ADMIN_PASSWORD, ENV } from './env';

const ROOT = path.resolve(__dirname, '../../..');
const CLIENT_INDEX = path.join(ROOT, 'dist/client/index.html');
const START_TIMEOUT_MS = 30_000;

/** Asks the OS for a port nobody uses (listen on 0), then frees it for the server. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilServing(url: string, exited: () => string | null): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const exit = exited();
    if (exit) throw new Error(exit);
    try {
      const response = await fetch(`${url}api/sys/menu/authority`);
      // Any envelope (a 401 without a token) proves the API and the database are up.
      if (response.ok && typeof (await response.json()).code === 'number') return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`e2e server did not answer on ${url} within ${START_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export default async function globalSetup(): Promise<void> {
  for (const file of [SERVER_MAIN, CLIENT_INDEX]) {
    if (!fs.existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing: run \`npm run build\` first (npm run test:e2e does).`);
  }
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-e2e-'));
  fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
  const logFile = path.join(ROOT, 'test-results', 'e2e-server.log');
  const log = fs.openSync(logFile, 'w');

  // As `npm run serve` starts it, Node flags included.
  const child = spawn(process.execPath, [...SERVER_ARGS], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_PASSWORD,
      // A cheap scrypt cost and no login delay: the suite signs in dozens of times.
      PASSWORD_COST: '1024',
      LOGIN_DELAY_MS: '0',
      SCHEDULER: 'on',
      SCHEDULER_TICK_MS: '250',
      // The notification spec's webhook receiver listens on 127.0.0.1.
      NOTIFY_ALLOW_PRIVATE_TARGETS: '1',
      // E2E_LOG_LEVEL=info logs every request line (with its response time) to the log file above.
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // Hold-ups of half a second show in the report teardown prints.
      EVENT_LOOP_STALL_MS: '500',
    },
    stdio: ['ignore', log, log],
  });
  let exitReason: string | null = null;
  child.on('exit', (code, signal) => {
    exitReason = `e2e server exited early (code ${code}, signal ${signal}); see ${path.relative(ROOT, logFile)}:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`;
  });
  // If the runner dies without reaching teardown, do not leave a server behind.
  process.once('exit', () => child.kill('SIGKILL'));

  const url = `http://127.0.0.1:${port}/`;
  try {
    await waitUntilServing(url, () => exitReason);
  } catch (error) {
    child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  process.env[ENV.baseUrl] = url;
  process.env[ENV.serverPid] = String(child.pid);
  process.env[ENV.dataDir] = dataDir;
  process.env[ENV.serverLog] = logFile;
}
