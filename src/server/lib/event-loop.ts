/**
 * Lets the event loop read sockets and run timers before a long job goes on. On SQLite every
 * statement runs synchronously and its promise settles at once, so a loop of awaited statements
 * never gives I/O a turn: without this, a sweep of a million devices held every heartbeat and
 * request for its whole run (32 s), however small its batches.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
