/**
 * A capped count that reaches its limit ("10,000+") is taken as reached for a few seconds instead
 * of being read again on every page; a count below its limit, an exact total, is always read. The
 * ids of a search (idsUpTo) share that memory.
 */
import { describeOnEachDatabase } from './support/harness';
import { deviceRow } from './support/sys-fixtures';
import { countUpTo, idsUpTo, REACHED, ReachedCounts, REACHED_COUNT_MS } from '../../src/server/lib/list-query';

describe('ReachedCounts', () => {
  it('forgets an entry after its time and the oldest entry when full', () => {
    let now = 1_000;
    const reached = new ReachedCounts(100, 2, () => now);
    reached.remember('a');
    now += 99;
    expect(reached.has('a')).toBe(true);
    now += 1;
    expect(reached.has('a')).toBe(false);

    reached.remember('a');
    reached.remember('b');
    reached.remember('c');
    expect([reached.has('a'), reached.has('b'), reached.has('c')]).toEqual([false, true, true]);
  });

  /** A read that answers `answer` when told to, counting how often it was started. */
  function heldRead(answer: number | Error) {
    const started: Array<() => void> = [];
    const read = () => new Promise<number>((resolve, reject) => started.push(() => (answer instanceof Error ? reject(answer) : resolve(answer))));
    return { read, started, finishAll: () => started.splice(0).forEach((finish) => finish()) };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('lets callers that arrive during a read of the same key wait for it, and take it when it reached the limit', async () => {
    const reached = new ReachedCounts(100, 10, () => 0);
    const held = heldRead(10);
    const answers = Promise.all(Array.from({ length: 5 }, () => reached.probe('broad', held.read, (n) => n >= 10)));
    await settle();
    // One read for five pages asked for at once.
    expect(held.started).toHaveLength(1);
    held.finishAll();
    expect(await answers).toEqual([10, REACHED, REACHED, REACHED, REACHED]);
    expect(reached.has('broad')).toBe(true);
  });

  it('has each waiting caller read afresh when the read it waited for stayed under the limit or failed', async () => {
    for (const answer of [3, new Error('数据库暂不可用')]) {
      const reached = new ReachedCounts(100, 10, () => 0);
      const first = heldRead(answer);
      const leader = reached.probe('narrow', first.read, (n) => n >= 10).catch((error: Error) => error.message);
      await settle();
      const afresh = heldRead(4);
      const waiting = Promise.all(Array.from({ length: 3 }, () => reached.probe('narrow', afresh.read, (n) => n >= 10)));
      await settle();
      // Nobody else reads while the first read is under way.
      expect(afresh.started).toHaveLength(0);
      first.finishAll();
      await settle();
      // An exact total (or none) is no answer for a later caller: each reads its own.
      expect(afresh.started).toHaveLength(3);
      afresh.finishAll();
      expect(await waiting).toEqual([4, 4, 4]);
      expect(await leader).toBe(answer instanceof Error ? answer.message : answer);
      expect(reached.has('narrow')).toBe(false);
    }
  });
});

describeOnEachDatabase('counts up to a limit', (ctx) => {
  let now = 0;
  const clock = () => now;

  beforeAll(async () => {
    await ctx()
      .database.db.insertInto('hotelDevice')
      .values([...Array.from({ length: 6 }, (_, i) => deviceRow(`REACH-A-${i}`)), ...Array.from({ length: 2 }, (_, i) => deviceRow(`REACH-B-${i}`))])
      .execute();
  });

  const idsOf = (prefix: string) => ctx().app.reads.selectFrom('hotelDevice').select('id').where('sn', 'like', `${prefix}%`);

  it('answers a count that reached its limit from memory until its time is up, and reads a smaller one every time', async () => {
    const reached = new ReachedCounts(REACHED_COUNT_MS, 100, clock);
    const countA = countUpTo(ctx().app.reads, idsOf('REACH-A-'), reached);
    const countB = countUpTo(ctx().app.reads, idsOf('REACH-B-'), reached);
    expect(Number((await countA(5)).n)).toBe(5);
    expect(Number((await countA(10)).n)).toBe(6);
    expect(Number((await countB(5)).n)).toBe(2);

    await ctx().database.db.deleteFrom('hotelDevice').where('sn', 'like', 'REACH-%').execute();
    // Reached: still "at least 5" within the time. Not reached (a different limit, another
    // filter): read again, so an exact total is never stale.
    now += REACHED_COUNT_MS - 1;
    expect(Number((await countA(5)).n)).toBe(5);
    expect(Number((await countA(10)).n)).toBe(0);
    expect(Number((await countB(5)).n)).toBe(0);
    now += 1;
    expect(Number((await countA(5)).n)).toBe(0);
  });

  it('reads the ids up to the limit (idsUpTo), sharing with the count the memory of a limit reached', async () => {
    await ctx()
      .database.db.insertInto('hotelDevice')
      .values(Array.from({ length: 6 }, (_, i) => deviceRow(`REACH-IDS-${i}`)))
      .execute();
    const reached = new ReachedCounts(REACHED_COUNT_MS, 100, clock);
    const readIds = idsUpTo(ctx().app.reads, idsOf('REACH-IDS-'), reached);
    const countOf = countUpTo(ctx().app.reads, idsOf('REACH-IDS-'), reached);
    const sorted = (ids: number[] | null) => ids && [...ids].sort((a, b) => a - b);
    const all = sorted(await readIds(10));
    expect(all).toHaveLength(6);
    expect(sorted(await readIds(6))).toEqual(all);

    await ctx().database.db.deleteFrom('hotelDevice').where('sn', 'like', 'REACH-IDS-%').execute();
    // The ids reached 6: that limit is taken as reached by both, unread, until the time is up.
    now += REACHED_COUNT_MS - 1;
    expect(await readIds(6)).toBeNull();
    expect(Number((await countOf(6)).n)).toBe(6);
    expect(await readIds(10)).toEqual([]);
    now += 1;
    expect(await readIds(6)).toEqual([]);
    expect(Number((await countOf(6)).n)).toBe(0);
  });

  it('runs one count for the pages of a broad list asked for at once, and one read of its ids', async () => {
    await ctx()
      .database.db.insertInto('hotelDevice')
      .values(Array.from({ length: 6 }, (_, i) => deviceRow(`REACH-HERD-${i}`)))
      .execute();
    const executor = ctx().app.reads.getExecutor();
    const queries = jest.spyOn(executor, 'executeQuery');
    try {
      const reached = new ReachedCounts(REACHED_COUNT_MS, 100, clock);
      const counts = await Promise.all(Array.from({ length: 8 }, () => countUpTo(ctx().app.reads, idsOf('REACH-HERD-'), reached)(5)));
      expect(counts.map((count) => Number(count.n))).toEqual(Array.from({ length: 8 }, () => 5));
      expect(queries).toHaveBeenCalledTimes(1);

      queries.mockClear();
      const ids = await Promise.all(Array.from({ length: 8 }, () => idsUpTo(ctx().app.reads, idsOf('REACH-HERD-'), reached)(4)));
      expect(ids.filter((found) => found !== null).map((found) => found.length)).toEqual([4]);
      expect(queries).toHaveBeenCalledTimes(1);
    } finally {
      queries.mockRestore();
      await ctx().database.db.deleteFrom('hotelDevice').where('sn', 'like', 'REACH-HERD-%').execute();
    }
  });

  it('keys a count whose parameters JSON cannot write (a bigint)', async () => {
    const ids = ctx()
      .app.reads.selectFrom('hotelDevice')
      .select('id')
      .where('id', '>', 0n as unknown as number);
    await expect(countUpTo(ctx().app.reads, ids, new ReachedCounts(REACHED_COUNT_MS, 100, clock))(5)).resolves.toBeDefined();
  });
});
