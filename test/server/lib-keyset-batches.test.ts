/**
 * Log exports read newest first in keyset batches: every matching row exactly once, in (at, id)
 * descending order, also when many rows share one time and a batch boundary falls among them.
 */
import { describeOnEachDatabase } from './support/harness';
import { newestFirstInBatches } from '../../src/server/lib/keyset-batches';

describeOnEachDatabase('newest-first keyset batches', (ctx) => {
  const userName = 'keyset.batches';
  const rows = Array.from({ length: 23 }, (_, index) => ({
    id: 9_000_000 + index,
    // Runs of equal times (5 rows each): a batch of 4 must split them.
    at: 1_700_000_000_000 + Math.floor(index / 5) * 1000,
  }));

  beforeAll(async () => {
    // Inserted directly: the rows only need an order, not a valid hash chain.
    await ctx()
      .database.db.insertInto('sysLoginLog')
      .values(
        rows.map(({ id, at }) => ({
          id,
          at,
          event: 'login',
          outcome: 'success',
          userId: null,
          userName,
          ip: '',
          browser: '',
          os: '',
          userAgent: '',
          msg: '',
          prevHash: '',
          hash: '',
        })),
      )
      .execute();
  });

  it.each([1, 4, 5, 23, 100])('yields every row once, newest first, in batches of %i', async (batchSize) => {
    const query = ctx().database.db.selectFrom('sysLoginLog').select(['id', 'at']).where('userName', '=', userName);
    const seen: Array<{ id: number; at: number }> = [];
    for await (const row of newestFirstInBatches(query, batchSize)) seen.push({ id: Number(row.id), at: Number(row.at) });
    const expected = [...rows].sort((a, b) => b.at - a.at || b.id - a.id);
    expect(seen).toEqual(expected);
  });
});
