/**
 * Issue 13: the backup and restore procedures of docs/deploy.md, run for real on the built
 * product: SQLite backed up online while an instance writes to it, PostgreSQL with pg_dump and
 * pg_restore; each restored database is served by a fresh instance that still holds the data.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from './support';

const root = path.resolve(__dirname, '../..');
const ADMIN_PASSWORD = 'Backup-Hotel-Passw0rd';
jest.setTimeout(180_000);

interface Running {
  base: string;
  child: ChildProcess;
}

async function startInstance(env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'dist/node/server/main.js')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD, LOG_LEVEL: 'warn', SCHEDULER: 'off', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => String(chunk).includes('已启动') && resolve());
    child.once('exit', (code) => reject(new Error(`instance exited with ${code}`)));
  });
  return { base: `http://127.0.0.1:${port}/api`, child };
}

const stopInstance = (running: Running) =>
  new Promise<void>((resolve) => {
    running.child.once('exit', () => resolve());
    running.child.kill('SIGTERM');
  });

async function post<T>(base: string, url: string, body: unknown, token?: string): Promise<{ code: number; msg: string; data: T }> {
  const response = await fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  return (await response.json()) as { code: number; msg: string; data: T };
}

const signIn = async (base: string) => (await post<{ token: string }>(base, '/sys/user/verify', { userName: 'admin', password: ADMIN_PASSWORD })).data.token;

async function createUsers(base: string, token: string, prefix: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const answer = await post(base, '/sys/user/creation', { userName: `${prefix}${i}`, nickName: `备份${i}`, password: 'Backup-User-Pass1', state: 1, roleId: null }, token);
    expect(answer.code).toBe(200);
  }
}

async function usersNamed(base: string, prefix: string): Promise<number> {
  const token = await signIn(base);
  return (await post<{ total: number }>(base, '/sys/user/inquire', { current: 1, size: 10, params: { userName: prefix } }, token)).data.total;
}

it('SQLite: an online backup taken while the product writes restores into a working product', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-backup-'));
  const live = await startInstance({ DATA_DIR: path.join(dir, 'live') });
  const token = await signIn(live.base);
  await createUsers(live.base, token, 'kept.', 5);
  // Writes go on during the backup: the copy is a consistent snapshot either way.
  const writing = createUsers(live.base, token, 'during.', 20);
  const backup = spawnSync(process.execPath, [path.join(root, 'scripts/backup-sqlite.js'), path.join(dir, 'live/hotel.db'), path.join(dir, 'restored/hotel.db')], { encoding: 'utf8' });
  await writing;
  await stopInstance(live);
  expect(backup.stderr).toBe('');
  expect(backup.stdout).toContain('完整性检查通过');

  const restored = await startInstance({ DATA_DIR: path.join(dir, 'restored') });
  try {
    expect(await usersNamed(restored.base, 'kept.')).toBe(5);
  } finally {
    await stopInstance(restored);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it('PostgreSQL: pg_dump and pg_restore into a new database restore a working product', async () => {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const names = [`hotel_backup_${process.pid}_src`, `hotel_backup_${process.pid}_dst`];
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  for (const name of names) await admin.query(`CREATE DATABASE ${name}`);
  const urlOf = (name: string) => Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const dump = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-pgdump-')), 'hotel.dump');
  try {
    const live = await startInstance({ DATABASE_URL: urlOf(names[0]!) });
    await createUsers(live.base, await signIn(live.base), 'pg.kept.', 5);
    // The documented commands: a custom-format dump taken while the product runs, restored with no owner.
    const dumped = spawnSync('pg_dump', ['--format=custom', '--file', dump, urlOf(names[0]!)], { encoding: 'utf8' });
    expect(dumped.stderr).toBe('');
    await stopInstance(live);
    const restoredDump = spawnSync('pg_restore', ['--no-owner', '--dbname', urlOf(names[1]!), dump], { encoding: 'utf8' });
    expect(restoredDump.stderr).toBe('');

    const restored = await startInstance({ DATABASE_URL: urlOf(names[1]!) });
    try {
      expect(await usersNamed(restored.base, 'pg.kept.')).toBe(5);
    } finally {
      await stopInstance(restored);
    }
  } finally {
    for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
});
