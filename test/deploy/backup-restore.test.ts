/**
 * Issue 13: the backup and restore procedures of docs/deploy.md, run for real on the built
 * product: SQLite backed up online while an instance writes to it, PostgreSQL with pg_dump and
 * pg_restore; each restored database is served by a fresh instance that still holds the data.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPostgresDatabase } from '../support/postgres-database';
import { bearer, post, signIn, startInstance, stopInstance } from './support';

const root = path.resolve(__dirname, '../..');
jest.setTimeout(180_000);

async function createUsers(base: string, token: string, prefix: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const answer = await post(
      base,
      '/sys/user/creation',
      { userName: `${prefix}${i}`, nickName: `备份${i}`, password: 'Backup-User-Pass1', state: 1, roleId: null },
      bearer(token),
    );
    expect(answer.code).toBe(200);
  }
}

async function usersNamed(base: string, prefix: string): Promise<number> {
  const token = await signIn(base);
  return (await post<{ total: number }>(base, '/sys/user/inquire', { current: 1, size: 10, params: { userName: prefix } }, bearer(token))).data.total;
}

it('SQLite: an online backup taken while the product writes restores into a working product', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-backup-'));
  const live = await startInstance({ DATA_DIR: path.join(dir, 'live') });
  const token = await signIn(live.base);
  await createUsers(live.base, token, 'kept.', 5);
  // Writes go on during the backup: the copy is a consistent snapshot either way.
  const writing = createUsers(live.base, token, 'during.', 20);
  const backup = spawnSync(process.execPath, [path.join(root, 'scripts/backup-sqlite.js'), path.join(dir, 'live/hotel.db'), path.join(dir, 'restored/hotel.db')], {
    encoding: 'utf8',
  });
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
  const [source, target] = [await createPostgresDatabase('hotel_backup'), await createPostgresDatabase('hotel_restore')];
  const dump = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-pgdump-')), 'hotel.dump');
  try {
    const live = await startInstance({ DATABASE_URL: source.url });
    await createUsers(live.base, await signIn(live.base), 'pg.kept.', 5);
    // The documented commands: a custom-format dump taken while the product runs, restored with no owner.
    const dumped = spawnSync('pg_dump', ['--format=custom', '--file', dump, source.url], { encoding: 'utf8' });
    expect(dumped.stderr).toBe('');
    await stopInstance(live);
    const restoredDump = spawnSync('pg_restore', ['--no-owner', '--dbname', target.url, dump], { encoding: 'utf8' });
    expect(restoredDump.stderr).toBe('');

    const restored = await startInstance({ DATABASE_URL: target.url });
    try {
      expect(await usersNamed(restored.base, 'pg.kept.')).toBe(5);
    } finally {
      await stopInstance(restored);
    }
  } finally {
    await source.drop();
    await target.drop();
  }
});
