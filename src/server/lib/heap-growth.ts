/**
 * How far V8 lets the old generation grow past what survived its last full collection before the
 * next one. On a machine with memory to spare V8 lets the heap reach several times its live size:
 * under list and heartbeat load the server (and its SQLite reader threads, which share the
 * setting) peaked near 250 MB, against issue 10's budget of 200 MB. At 75 % it peaked near 175 MB
 * with the same list throughput and heartbeat p99 9 ms (docs/architecture.md).
 *
 * V8 reads this heuristic at every collection, so setting it at start-up, after the VM is up,
 * takes effect (a heap-size flag such as --max-semi-space-size would not).
 */
import v8 from 'node:v8';

export function limitHeapGrowth(percent: number, setFlags: (flags: string) => void = v8.setFlagsFromString): void {
  if (percent > 0) setFlags(`--heap-growing-percent=${percent}`);
}
