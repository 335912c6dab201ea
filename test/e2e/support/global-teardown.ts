/**
 * Stops the suite's server and deletes its data directory (see global-setup.ts), and prints what
 * the server logged at warn or above (slow requests, event-loop hold-ups, errors): the log file
 * stays in test-results/, but a CI run shows only its output.
 */
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

/** Lines shown at most; the count says how many there were. */
const SHOWN_LINES = 40;
const WARN = 40;

function reportServerWarnings(logFile: string | undefined): void {
  if (!logFile || !fs.existsSync(logFile)) return;
  const warnings = fs
    .readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => {
      try {
        return (JSON.parse(line) as { level?: number }).level! >= WARN;
      } catch {
        return /error|exception|^\s+at /i.test(line); // not JSON: a crash's stack trace, not the start banner
      }
    });
  console.log(`e2e server: ${warnings.length} line(s) at warn or above${warnings.length > SHOWN_LINES ? ` (the last ${SHOWN_LINES})` : ''}`);
  for (const line of warnings.slice(-SHOWN_LINES)) console.log(`  ${line}`);
}

export default async function globalTeardown(): Promise<void> {
  const pid = Number(process.env[ENV.serverPid]);
  if (pid > 0 && alive(pid)) {
    process.kill(pid, 'SIGTERM');
    // The server closes the database on SIGTERM; give it a moment, then insist.
    const deadline = Date.now() + 5_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  reportServerWarnings(process.env[ENV.serverLog]);
  const dataDir = process.env[ENV.dataDir];
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
