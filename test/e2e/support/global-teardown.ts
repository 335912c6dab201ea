/** Stops the suite's server and deletes its data directory (see global-setup.ts). */
import fs from 'node:fs';

import { ENV } from './env';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export default async function globalTeardown(): Promise<void> {
  const pid = Number(process.env[ENV.serverPid]);
  if (pid > 0 && alive(pid)) {
    process.kill(pid, 'SIGTERM');
    // The server closes the database on SIGTERM; give it a moment, then insist.
    const deadline = Date.now() + 5_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  const dataDir = process.env[ENV.dataDir];
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
