/**
 * The logs that may hold millions of rows (operation and sign-in logs), newest first: a page for
 * the list screens, and one batch after another for exports. A keyset on (at, id) makes each batch
 * an index range (no OFFSET that rescans what came before) and keeps memory flat however many rows
 * match.
 */
import type { QueryExecutorProvider, SelectQueryBuilder } from 'kysely';
import type { Paged } from '../../contract/constants';
import { yieldToEventLoop } from './event-loop';
import { countUpTo, fetchCappedPage, NEWEST_FIRST, ordered, type PageRequest } from './list-query';

// The filtered query of any log table with `at` and `id` columns; its row type is all that matters here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LogQuery<Row> = SelectQueryBuilder<any, any, Row>;

/**
 * A page of a log newest first, counted up to the cap (fetchCappedPage). `ids` is the filtered
 * log's ids: the page's ids come from the filter's index alone (a later page then skips index
 * entries, not rows), and only those rows are read, by `rowsWithIds` (the record's columns where
 * the id is in the given ids). Stepping on seeks from the previous page's last row.
 */
export function newestFirstPage<Row extends { at: number; id: number }>(
  request: PageRequest,
  db: QueryExecutorProvider,
  ids: LogQuery<{ id: number }>,
  rowsWithIds: (ids: LogQuery<{ id: number }> | readonly number[]) => LogQuery<Row>,
): Promise<Paged<Row>> {
  return fetchCappedPage(
    request,
    countUpTo(db, ids),
    (limit, offset, seek) =>
      ordered(
        rowsWithIds(
          ordered(
            ids.$if(seek !== null, (q) => q.where(seek!)),
            NEWEST_FIRST,
          )
            .limit(limit)
            .offset(offset),
        ),
        NEWEST_FIRST,
      ).execute(),
    { order: NEWEST_FIRST, rowById: (id) => rowsWithIds([id]).executeTakeFirst() },
  );
}

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
