/**
 * A search's matches read once for both the total and the page when they are few
 * (fetchMatchedPage, issue 10). idsUpTo, which reads them, is tested with countUpTo
 * (lib-reached-counts.test.ts).
 */
import { fetchMatchedPage, type MatchedIds } from '../../src/server/lib/list-query';
import type { Paged } from '../../src/contract/constants';

describe('fetchMatchedPage', () => {
  /** Fake reads of a list whose matches are `matches` (ids), recording what was asked. */
  function fakeList(matches: number[] | null) {
    const asked: string[] = [];
    const matched: MatchedIds<{ id: number }> = {
      ids: (limit) => {
        asked.push(`ids ${limit}`);
        return Promise.resolve(matches && matches.slice(0, limit));
      },
      rows: (ids, limit, offset) => {
        asked.push(`rows among ${ids.length} ${limit}@${offset}`);
        return Promise.resolve(
          [...ids]
            .sort((a, b) => b - a)
            .slice(offset, offset + limit)
            .map((id) => ({ id })),
        );
      },
    };
    const capped = (): Promise<Paged<{ id: number }>> => {
      asked.push('capped');
      return Promise.resolve({ records: [], current: 1, size: 5, total: 10, totalIsLowerBound: true });
    };
    return { asked, matched, capped };
  }
  const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  it('reads few matches once: the exact total and the page among them, in the list order', async () => {
    const list = fakeList(ids(7));
    const page = await fetchMatchedPage({ size: 5, current: 2 }, list.matched, list.capped, 10);
    expect(page).toEqual({ records: [{ id: 2 }, { id: 1 }], current: 2, size: 5, total: 7, totalIsLowerBound: false });
    expect(list.asked).toEqual(['ids 11', 'rows among 7 5@5']);
  });

  it('answers a page past the end with the total and no rows read', async () => {
    const list = fakeList(ids(7));
    expect(await fetchMatchedPage({ size: 5, current: 3 }, list.matched, list.capped, 10)).toEqual({ records: [], current: 3, size: 5, total: 7, totalIsLowerBound: false });
    expect(list.asked).toEqual(['ids 11']);
    const none = fakeList([]);
    expect(await fetchMatchedPage({ size: 5, current: 1 }, none.matched, none.capped, 10)).toMatchObject({ records: [], total: 0, totalIsLowerBound: false });
  });

  it('leaves a list past the cap, one lately past it, and the pager stepping on to fetchCappedPage', async () => {
    for (const [matches, request] of [
      [ids(11), { size: 5, current: 1 }],
      [null, { size: 5, current: 1 }],
      [ids(7), { size: 5, current: 2, after: 5 }],
    ] as const) {
      const list = fakeList(matches === null ? null : [...matches]);
      expect(await fetchMatchedPage(request, list.matched, list.capped, 10)).toMatchObject({ total: 10, totalIsLowerBound: true });
      expect(list.asked.at(-1)).toBe('capped');
      expect(list.asked).not.toContainEqual(expect.stringMatching(/^rows/));
    }
  });
});
