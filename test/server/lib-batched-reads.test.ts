/**
 * Issue 10: reads by key that arrive in one turn of the event loop share one query
 * (lib/batched-reads.ts), which is how heartbeats look their devices up.
 */
import { BatchedReads } from '../../src/server/lib/batched-reads';

interface Row {
  key: string;
  value: number;
}

/** Reads from `table`, recording the keys each query asked for. */
function recordingReads(table: Map<string, number>, maxKeys?: number) {
  const queries: string[][] = [];
  let failNext = false;
  const reads = new BatchedReads<string, Row>(
    (keys) => {
      queries.push(keys);
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('database unavailable'));
      }
      return Promise.resolve(keys.filter((key) => table.has(key)).map((key) => ({ key, value: table.get(key)! })));
    },
    (row) => row.key,
    maxKeys,
  );
  return { reads, queries, failOnce: () => (failNext = true) };
}

describe('BatchedReads', () => {
  const table = new Map([
    ['A', 1],
    ['B', 2],
    ['C', 3],
  ]);

  it('answers the reads asked in one turn with one query of their distinct keys', async () => {
    const { reads, queries } = recordingReads(table);
    const answers = await Promise.all(['A', 'B', 'A', 'missing'].map((key) => reads.read(key)));
    expect(queries).toEqual([['A', 'B', 'missing']]);
    expect(answers).toEqual([{ key: 'A', value: 1 }, { key: 'B', value: 2 }, { key: 'A', value: 1 }, undefined]);
  });

  it('reads again in a later turn, so a change in between is seen', async () => {
    const changing = new Map(table);
    const { reads, queries } = recordingReads(changing);
    expect(await reads.read('A')).toEqual({ key: 'A', value: 1 });
    changing.set('A', 10);
    expect(await reads.read('A')).toEqual({ key: 'A', value: 10 });
    expect(queries).toEqual([['A'], ['A']]);
  });

  it('asks for at most maxKeys keys per query', async () => {
    const { reads, queries } = recordingReads(table, 2);
    const answers = await Promise.all(['A', 'B', 'C', 'B'].map((key) => reads.read(key)));
    expect(queries).toEqual([['A', 'B'], ['C']]);
    expect(answers.map((row) => row?.value)).toEqual([1, 2, 3, 2]);
  });

  it('rejects only the reads of a failed query; the next turn reads afresh', async () => {
    const { reads, queries, failOnce } = recordingReads(table, 1);
    failOnce();
    const [first, second] = await Promise.allSettled([reads.read('A'), reads.read('B')]);
    expect(first).toEqual({ status: 'rejected', reason: new Error('database unavailable') });
    expect(second).toEqual({ status: 'fulfilled', value: { key: 'B', value: 2 } });
    expect(await reads.read('A')).toEqual({ key: 'A', value: 1 });
    expect(queries).toEqual([['A'], ['B'], ['A']]);
  });
});
