/**
 * SQLite's write lock taken by another process (BEGIN IMMEDIATE in a child), as a second writer of
 * the same file would: what the server's own connection then waits for, or does not.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

const LOCK_HOLDER = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1]);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
const release = () => { db.exec('ROLLBACK'); db.close(); process.exit(0); };
setTimeout(release, Number(process.argv[2]));
process.on('SIGTERM', release);
`;

/** Resolves once the child holds the lock; it lets go after `holdMs`, or when killed. */
export async function holdWriteLock(file: string, holdMs: number): Promise<ChildProcess> {
  const holder = spawn(process.execPath, ['-e', LOCK_HOLDER, file, String(holdMs)], { cwd: path.resolve(__dirname, '../../..'), stdio: ['ignore', 'pipe', 'inherit'] });
  await once(holder.stdout, 'data');
  return holder;
}
