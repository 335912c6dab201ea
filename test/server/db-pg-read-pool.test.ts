/**
 * PostgreSQL list reads on a pool of their own (PG_READ_CONNECTIONS, issue 10): however many list
 * queries wait, at most that many run, and the main pool's queries (heartbeats, sessions, writes)
 * never queue behind them.
 */
import { sql } from 'kysely';
import { describeOnPostgres, postgresHandles } from './support/harness';
import type { DatabaseHandle } from '../../src/server/db/connection';

describeOnPostgres('the PostgreSQL read pool', () => {
  const openHandle = postgresHandles();
  const open = (pgReadConnections: number) => openHandle({ poolSize: 4, pgReadConnections });

  /** Which of a slow read, a quick read queued after it and a main-pool query finish in what order. */
  async function finishingOrder(handle: DatabaseHandle): Promise<string[]> {
    const finished: string[] = [];
    const track = (name: string, query: Promise<unknown>) => query.then(() => finished.push(name));
    const slowRead = track('slow read', sql`select pg_sleep(0.4)`.execute(handle.reads));
    const quickRead = track('quick read', sql`select 1`.execute(handle.reads));
    const main = track('main pool', sql`select 1`.execute(handle.db));
    await Promise.all([slowRead, quickRead, main]);
    return finished;
  }

  it('runs at most PG_READ_CONNECTIONS list queries at once, beside the main pool', async () => {
    const handle = await open(1);
    expect(handle.reads).not.toBe(handle.db);
    expect(await finishingOrder(handle)).toEqual(['main pool', 'slow read', 'quick read']);
  });

  it('shares the main pool when set to 0', async () => {
    const handle = await open(0);
    expect(handle.reads).toBe(handle.db);
    // Four connections: the quick read does not wait for the slow one.
    expect((await finishingOrder(handle)).at(-1)).toBe('slow read');
  });
});
