/**
 * Where a load run's CPU went, per request: the server, PostgreSQL (every postgres process on this
 * machine) and this process, which generates the load (autocannon runs in it). The three share the
 * machine's cores, so their sum per request bounds the throughput any code could reach here:
 * `cores x 1000 / (ms per request)`. Linux only (/proc); elsewhere it prints nothing.
 */
const fs = require('node:fs');
const os = require('node:os');
const { spawnSync } = require('node:child_process');

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/**
 * User + system CPU of a process so far (ms), from /proc/<pid>/stat; 0 once it has gone. With
 * `reaped`, also that of its children that ended and were waited for (cutime, cstime).
 */
function processCpuMs(pid, { reaped = false } = {}) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm) ": state is the first; utime, stime, cutime and cstime the 12th to 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + (reaped ? Number(fields[13]) + Number(fields[14]) : 0);
    return (ticks / TICKS_PER_SECOND) * 1000;
  } catch {
    return 0;
  }
}

/**
 * CPU so far (ms) of PostgreSQL: every process named postgres (backends, workers), with what the
 * ones that ended used (a backend that closes, an autovacuum worker: the postmaster reaps them, so
 * their time moves to its children's), or the figure would drop when one ends.
 */
function postgresCpuMs() {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += processCpuMs(entry, { reaped: true });
    } catch {
      // The process ended while we looked.
    }
  }
  return total;
}

/** Whether a PostgreSQL URL's server runs on this machine, where its processes can be read. */
const postgresHere = (url) => ['localhost', '127.0.0.1', '[::1]', ''].includes(new URL(url).hostname);

/**
 * Starts counting; `perRequest(requests)` answers the CPU each request cost since, and its text.
 * `databaseUrl` is the server's PostgreSQL, if any: counted when it runs on this machine.
 */
function cpuMeter(serverPid, { databaseUrl } = {}) {
  const postgres = Boolean(databaseUrl) && postgresHere(databaseUrl);
  if (!fs.existsSync('/proc/self/stat')) return { perRequest: () => ({ text: '' }) };
  const snapshot = () => ({ server: processCpuMs(serverPid), postgres: postgres ? postgresCpuMs() : 0, load: processCpuMs(process.pid) });
  const start = snapshot();
  return {
    perRequest(requests) {
      const end = snapshot();
      const ms = (part) => (end[part] - start[part]) / Math.max(requests, 1);
      const parts = { server: ms('server'), postgres: ms('postgres'), load: ms('load') };
      const total = parts.server + parts.postgres + parts.load;
      const cores = os.cpus().length;
      const text =
        `CPU per request: server ${parts.server.toFixed(2)} ms` +
        (postgres ? `, PostgreSQL ${parts.postgres.toFixed(2)} ms` : databaseUrl ? ', PostgreSQL on another machine (not counted)' : '') +
        `, load generator ${parts.load.toFixed(2)} ms` +
        (total > 0 ? `; ${cores} cores allow at most ${Math.round((cores * 1000) / total).toLocaleString('en')} req/s` : '');
      return { ...parts, total, text };
    },
  };
}

module.exports = { cpuMeter };
