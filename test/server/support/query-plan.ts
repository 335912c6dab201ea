/**
 * The plan the database chooses for a compiled statement, as text. On PostgreSQL sequential scans
 * are turned off for it (and, when asked, plain index scans): on a test's small table the planner
 * would rather read it all, and the plan wanted is the one for a million rows.
 */
import { CompiledQuery, sql } from 'kysely';
import type { TestApp } from './harness';

export function queryPlan(app: TestApp, compiled: CompiledQuery, { postgresIndexScans = true } = {}): Promise<string> {
  const { dialect, db } = app.database;
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
    // Off too where the plan wanted is a bitmap scan of an index serving the condition: on a tiny
    // table the planner would rather walk the primary key and filter every row.
    if (dialect === 'postgres' && !postgresIndexScans) {
      await sql`set local enable_indexscan = off`.execute(trx);
      await sql`set local enable_indexonlyscan = off`.execute(trx);
    }
    const explain = dialect === 'sqlite' ? 'explain query plan' : 'explain';
    const rows = (await trx.executeQuery<Record<string, string>>(CompiledQuery.raw(`${explain} ${compiled.sql}`, [...compiled.parameters]))).rows;
    return rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');
  });
}
