/**
 * Lets the event loop read sockets and run timers before a long job goes on. On SQLite every
 * statement runs synchronously and its promise settles at once, so a loop of awaited statements
 * never gives I/O a turn: without this, a sweep of a million devices held every heartbeat and
 * request for its whole run (32 s), however small its batches.
 *
 * Two hops, not one: what the requests read meanwhile schedule with setImmediate (the heartbeats'
 * batched lookup) is queued behind the job's own first hop, and with one hop the job's next batch
 * ran first, so each heartbeat during a sweep waited a whole chunk more (slowest 41-65 ms instead
 * of 22).
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
