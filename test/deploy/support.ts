/** What the deployment suites share: free ports, and built instances of the product to start, call and stop. */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { SERVER_ARGS } from '../../scripts/server-command';

const root = path.resolve(__dirname, '../..');
export const ADMIN_PASSWORD = 'Deploy-Hotel-Passw0rd';

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Running {
  base: string;
  child: ChildProcess;
}

/** The built product (dist/) on a free port, started as `npm run serve` starts it, answered once it says it has started. */
export async function startInstance(env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVER_ARGS], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD, LOG_LEVEL: 'warn', SCHEDULER: 'off', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk) => String(chunk).includes('已启动') && resolve());
    child.once('exit', (code) => reject(new Error(`instance exited with ${code}`)));
  });
  return { base: `http://127.0.0.1:${port}/api`, child };
}

/** SIGTERM (a graceful stop) or SIGKILL (a crash: nothing of the process's own runs). */
export const stopInstance = (running: Running, signal: NodeJS.Signals = 'SIGTERM') =>
  new Promise<void>((resolve) => {
    running.child.once('exit', () => resolve());
    running.child.kill(signal);
  });

export async function post<T>(base: string, url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ code: number; msg: string; data: T }> {
  const response = await fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return (await response.json()) as { code: number; msg: string; data: T };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export const signIn = async (base: string) => (await post<{ token: string }>(base, '/sys/user/verify', { userName: 'admin', password: ADMIN_PASSWORD })).data.token;
