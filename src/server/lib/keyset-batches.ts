/**
 * Newest first, one batch after another, for exports of logs that may hold millions of rows: a
 * keyset on (at, id) makes each batch an index range (no OFFSET that rescans what came before)
 * and keeps memory flat however many rows match.
 */
import type { SelectQueryBuilder } from 'kysely';
import { yieldToEventLoop } from './event-loop';

// The filtered query of any log table with `at` and `id` columns; its row type is all that matters here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LogQuery<Row> = SelectQueryBuilder<any, any, Row>;

export async function* newestFirstInBatches<Row extends { at: number; id: number }>(query: LogQuery<Row>, batchSize = 1000): AsyncGenerator<Row> {
  let after: Row | undefined;
  for (;;) {
    const from = after;
    const ranged = from ? query.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(from.at, from.id))) : query;
    const batch = await ranged.orderBy('at', 'desc').orderBy('id', 'desc').limit(batchSize).execute();
    yield* batch;
    if (batch.length < batchSize) return;
    after = batch[batch.length - 1];
    await yieldToEventLoop();
  }
}
