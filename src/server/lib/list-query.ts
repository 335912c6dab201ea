/**
 * Building blocks of list inquiries: one page of rows plus its total from one count query, a
 * "contains" filter that treats the user's text as text (LIKE wildcards in it are escaped), and
 * the order of a list from its enumerated sort keys, with keyset reading for exports.
 */
import { CompiledQuery, sql, type Compilable, type Expression, type QueryExecutorProvider, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Paged } from '../../contract/constants';
import { invalid } from './errors';
import { yieldToEventLoop } from './event-loop';

export interface PageRequest {
  size: number;
  current: number;
  /** The id of the previous page's last row, sent by the pager when it steps one page on. */
  after?: number;
}

/**
 * Runs the count, then the rows of the asked page; a page past the end costs no second query and
 * answers no records with the true total. For lists that stay small (roles, menus, dictionaries);
 * a list that can grow without bound uses fetchCappedPage.
 */
export async function fetchPage<T>(
  request: PageRequest,
  count: () => Promise<{ n: number | string | bigint }>,
  rows: (limit: number, offset: number) => Promise<T[]>,
): Promise<Paged<T>> {
  const total = Number((await count()).n);
  const offset = (request.current - 1) * request.size;
  const records = offset < total ? await rows(request.size, offset) : [];
  return { records, current: request.current, size: request.size, total, totalIsLowerBound: false };
}

/** A text filter the user left blank is no filter: forms send '' for an empty field. */
export const given = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/** Case-insensitive substring match that behaves the same on SQLite and PostgreSQL. */
export const contains = (column: Expression<string>, text: string): Expression<SqlBool> => containsFolded(sql<string>`lower(${column})`, text);

/**
 * `contains` on a column that already holds its text in lower case (PostgreSQL's search tables,
 * migration 018): the same match without lower() on every row tested.
 */
export function containsFolded(folded: Expression<string>, text: string): Expression<SqlBool> {
  const pattern = `%${text
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`${folded} like ${pattern} escape '\\'`;
}

/** Rows a capped count reads at most; a longer list answers this as a lower bound of its total. */
export const COUNT_CAP = 10_000;

/** Reads a page's rows: at most `limit`, skipping `offset`, or (seek not null) those after the previous page's last row. */
export type PageRows<T> = (limit: number, offset: number, seek: Expression<SqlBool> | null) => Promise<T[]>;

/**
 * How a list continues after the previous page's last row (keyset paging): its order, and that row
 * as the order needs it (the fields of its sort keys), undefined when the row is gone.
 */
export interface Continuation {
  order: ListOrder;
  rowById: (id: number) => Promise<Record<string, unknown> | undefined>;
}

/**
 * A page of a list too large to count on every call (devices, users, the audit logs): `count(limit)`
 * counts at most `limit` rows (a count over a LIMITed subquery, which reads only that many index
 * entries), so `total` is exact up to the cap. Past it the list is not counted: the page is read
 * with one row more than asked, which tells whether the list goes on. `total` is then the larger of
 * the cap and the rows known so far, `totalIsLowerBound` is true, and the pager offers the next
 * page; the page where the list ends answers its exact total.
 *
 * A deep page costs the rows it skips. When the pager steps one page on it names the last row it
 * showed (`after`), and with a `continuation` the page is read from that row on instead (a seek in
 * the list's order, however deep). A row since deleted falls back to skipping.
 */
export async function fetchCappedPage<T>(
  request: PageRequest,
  count: (limit: number) => Promise<{ n: number | string | bigint }>,
  rows: PageRows<T>,
  continuation?: Continuation,
  cap = COUNT_CAP,
): Promise<Paged<T>> {
  const { size, current } = request;
  const offset = (current - 1) * size;
  const previous = request.after !== undefined && current > 1 && continuation ? await continuation.rowById(request.after) : undefined;
  const seek = previous && continuation ? after(continuation.order, previous) : null;
  const read = (limit: number) => (seek ? rows(limit, 0, seek) : rows(limit, offset, null));
  const counted = Number((await count(cap + 1)).n);
  if (counted <= cap) {
    const records = offset < counted ? await read(size) : [];
    return { records, current, size, total: counted, totalIsLowerBound: false };
  }
  const fetched = await read(size + 1);
  const more = fetched.length > size;
  const records = more ? fetched.slice(0, size) : fetched;
  const known = offset + records.length;
  // An empty page past the end cannot tell where the list ends: the cap stays the lower bound.
  const endsHere = !more && records.length > 0;
  return { records, current, size, total: endsHere ? known : Math.max(cap, known), totalIsLowerBound: !endsHere };
}

/** fetchCappedPage's count for a list whose total is known already: what a count up to `limit` would answer. */
export const knownCount =
  (total: number) =>
  (limit: number): Promise<{ n: number }> =>
    Promise.resolve({ n: Math.min(total, limit) });

/** How long a count that reached its limit is taken as reaching it again (ReachedCounts). */
export const REACHED_COUNT_MS = 3_000;

/**
 * Counts that lately reached their limit, by query text and parameters. A list longer than the
 * cap answers "10,000+" however much longer it is, so for a few seconds such a count is taken as
 * reached again instead of reading cap + 1 index entries on every page of a broad list (the whole
 * device list, a search matching ten thousand devices): paging through it, or several staff
 * looking at it, costs the page alone. A count below its limit is read afresh every time, so an
 * exact total is never stale; a "10,000+" may be REACHED_COUNT_MS old (docs/API.md, Paging).
 */
export class ReachedCounts {
  private readonly until = new Map<string, number>();
  /** Reads under way, by key: whether each reached its limit (false also when it failed). */
  private readonly reading = new Map<string, Promise<boolean>>();

  constructor(
    private readonly ttlMs = REACHED_COUNT_MS,
    private readonly maxEntries = 1_000,
    private readonly clock: () => number = Date.now,
  ) {}

  has(key: string): boolean {
    const until = this.until.get(key);
    if (until === undefined) return false;
    if (until > this.clock()) return true;
    this.until.delete(key);
    return false;
  }

  remember(key: string): void {
    this.until.delete(key);
    // Insertion order is age order: the oldest entry makes room.
    if (this.until.size >= this.maxEntries) this.until.delete(this.until.keys().next().value!);
    this.until.set(key, this.clock() + this.ttlMs);
  }

  /**
   * `read`'s answer for `key`, or REACHED when lately it reached its limit. When the memory runs
   * out, every page asked for meanwhile would read the cap's worth of entries at once (50 staff on
   * a broad search: 50 reads of 10,001 ids, queued on the same reader), so a caller arriving while
   * a read of the key is under way waits for it. If that read reached the limit, the caller takes
   * it (a "10,000+" may be a few seconds old anyway); if not, the caller reads afresh, so an exact
   * total never misses a write committed before it was asked for.
   */
  async probe<T>(key: string, read: () => Promise<T>, reachedLimit: (answer: T) => boolean): Promise<T | typeof REACHED> {
    if (this.has(key)) return REACHED;
    const underWay = this.reading.get(key);
    if (underWay && (await underWay)) return REACHED;
    const answer = read();
    if (!underWay) {
      const reached = answer.then(reachedLimit, () => false);
      this.reading.set(key, reached);
      void reached.then(() => this.reading.get(key) === reached && this.reading.delete(key));
    }
    const result = await answer;
    if (reachedLimit(result)) this.remember(key);
    return result;
  }
}

/** ReachedCounts.probe's answer for a limit lately reached. */
export const REACHED = Symbol('reached');

/** One memo per database (per app in tests, where several share a process). */
const reachedByDatabase = new WeakMap<QueryExecutorProvider, ReachedCounts>();
const reachedCountsOf = (db: QueryExecutorProvider) => reachedByDatabase.get(db) ?? reachedByDatabase.set(db, new ReachedCounts()).get(db)!;

/** A query of a list's matching ids, which can be limited (a Kysely select of one column `id`). */
export interface MatchingIds {
  limit(limit: number): Compilable<{ id: number }>;
}

/** The memory's key of a query: its SQL and parameters (a bigint, which JSON cannot write, by its digits). */
const reachedKey = (compiled: CompiledQuery) =>
  `${compiled.sql}\n${JSON.stringify(compiled.parameters, (_name, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value))}`;

/**
 * fetchCappedPage's count for a list whose matching ids `ids` selects: a count over the ids LIMITed
 * to `limit`, so the database reads at most that many index entries. A count that reaches its
 * limit is remembered for a few seconds (ReachedCounts), under the key idsUpTo uses too.
 */
export function countUpTo(db: QueryExecutorProvider, ids: MatchingIds, reached = reachedCountsOf(db)) {
  return async (limit: number): Promise<{ n: number | string }> => {
    const limited = ids.limit(limit).compile();
    const count = CompiledQuery.raw(`select count(*) as n from (${limited.sql}) as capped`, [...limited.parameters]);
    const counted = await reached.probe(
      reachedKey(limited),
      async () => (await db.getExecutor().executeQuery<{ n: number | string }>(count)).rows[0] ?? { n: 0 },
      (answer) => Number(answer.n) >= limit,
    );
    return counted === REACHED ? { n: limit } : counted;
  };
}

/**
 * At most `limit` of a list's matching ids, or null when lately they reached it (the memory
 * countUpTo keeps, under the same key: either one reaching the limit spares the other).
 */
export function idsUpTo(db: QueryExecutorProvider, ids: MatchingIds, reached = reachedCountsOf(db)) {
  return async (limit: number): Promise<number[] | null> => {
    const limited = ids.limit(limit).compile();
    const rows = await reached.probe(
      reachedKey(limited),
      async () => (await db.getExecutor().executeQuery<{ id: number }>(limited)).rows,
      (answer) => answer.length >= limit,
    );
    return rows === REACHED ? null : rows.map((row) => Number(row.id));
  };
}

/** A list's matches read once for both its total and its page (fetchMatchedPage). */
export interface MatchedIds<T> {
  /** At most `limit` of the matching ids, null when lately they reached it (idsUpTo). */
  ids: (limit: number) => Promise<number[] | null>;
  /** The page among `ids` (every match), in the list's order. */
  rows: (ids: readonly number[], limit: number, offset: number) => Promise<T[]>;
}

/**
 * A page of a list whose filter is its costliest part (a search: a trigram index scan), which
 * fetchCappedPage runs twice, once to count and once for the page. When the matches are few (up
 * to the cap) their ids are read once, counted, and the page read among them by id: the same page
 * and exact total for half the work (on PostgreSQL "酒店123-8", 200 matches among a million
 * devices: 3.3 ms instead of 6.2). A longer list, or the pager stepping on from a row, is
 * `fetchCapped`'s (whose count then knows the ids reached the cap).
 */
export async function fetchMatchedPage<T>(request: PageRequest, matched: MatchedIds<T>, fetchCapped: () => Promise<Paged<T>>, cap = COUNT_CAP): Promise<Paged<T>> {
  const { size, current } = request;
  if (request.after !== undefined && current > 1) return fetchCapped();
  const ids = await matched.ids(cap + 1);
  if (ids === null || ids.length > cap) return fetchCapped();
  const offset = (current - 1) * size;
  const records = offset < ids.length ? await matched.rows(ids, size, offset) : [];
  return { records, current, size, total: ids.length, totalIsLowerBound: false };
}

/** The column a sort key orders by; nullable columns say so (NULL sorts as the largest value). */
export type SortColumn = string | { column: string; nullable: true };

/** One step of a list's order: the column, the row field holding its value, the direction. */
export interface OrderItem {
  column: string;
  key: string;
  descending: boolean;
  nullable: boolean;
}
/** A total order: the last item is always the unique id, so equal values keep a stable order. */
export type ListOrder = readonly OrderItem[];

const item = (key: string, spec: SortColumn, descending: boolean): OrderItem =>
  typeof spec === 'string' ? { column: spec, key, descending, nullable: false } : { column: spec.column, key, descending, nullable: true };

/**
 * A list's default order: [row field, column, direction] steps ending with the id.
 * e.g. `defaultOrder(['code', 'code'], ['sort', 'sort'], ['id', 'id'])`.
 */
export function defaultOrder(...steps: Array<[key: string, column: string, direction?: 'desc']>): ListOrder {
  return steps.map(([key, column, direction]) => item(key, column, direction === 'desc'));
}

/** The audit logs' order: newest first, by time and then id (each filter's index ends in at, id). */
export const NEWEST_FIRST = defaultOrder(['at', 'at', 'desc'], ['id', 'id', 'desc']);

/**
 * The order a list's request asks for: the requested key's column from the list's own table of
 * sort keys, then the id in the same direction (so descend is exactly ascend reversed); without a
 * sort, the list's default order. The contract already refuses unknown keys; a key missing from
 * the table (e.g. "constructor") is refused here too rather than reaching SQL.
 */
export function listOrder<S extends string>(
  sort: { field: S; order: 'ascend' | 'descend' } | undefined,
  keys: Readonly<Record<S, SortColumn>>,
  fallback: ListOrder,
  idColumn = 'id',
): ListOrder {
  if (!sort) return fallback;
  if (!Object.hasOwn(keys, sort.field)) throw invalid('排序字段取值不正确');
  const descending = sort.order === 'descend';
  return [item(sort.field, keys[sort.field], descending), item('id', idColumn, descending)];
}

/** Applies a list order; NULLS clauses only on nullable columns, so plain columns keep their indexes. */
export function ordered<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, order: ListOrder): SelectQueryBuilder<DB, TB, O> {
  return order.reduce(
    (q, step) =>
      q.orderBy(sql.ref(step.column), (ob) => {
        if (!step.nullable) return step.descending ? ob.desc() : ob.asc();
        return step.descending ? ob.desc().nullsFirst() : ob.asc().nullsLast();
      }),
    query,
  );
}

/** Rows strictly after `row` in `order` (keyset paging; NULL is the largest value). */
export function after(order: ListOrder, row: Record<string, unknown>): Expression<SqlBool> {
  const equal = (step: OrderItem) => {
    const value = row[step.key];
    return value === null || value === undefined ? sql<SqlBool>`${sql.ref(step.column)} is null` : sql<SqlBool>`${sql.ref(step.column)} = ${value}`;
  };
  const beyond = (step: OrderItem) => {
    const column = sql.ref(step.column);
    const value = row[step.key];
    if (value === null || value === undefined) return step.descending ? sql<SqlBool>`${column} is not null` : sql<SqlBool>`1 = 0`;
    if (step.descending) return sql<SqlBool>`${column} < ${value}`;
    return step.nullable ? sql<SqlBool>`(${column} > ${value} or ${column} is null)` : sql<SqlBool>`${column} > ${value}`;
  };
  const branches = order.map((step, index) => sql.join([...order.slice(0, index).map(equal), beyond(step)], sql` and `));
  return sql<SqlBool>`(${sql.join(
    branches.map((branch) => sql`(${branch})`),
    sql` or `,
  )})`;
}

/**
 * Reads a list in its order one keyset batch at a time (each batch starts after the last row
 * read, however deep), for streaming exports. `read` answers up to `limit` rows after `seek`
 * (null for the first batch), in `order`.
 */
export async function* inOrder<T extends object>(order: ListOrder, read: (seek: Expression<SqlBool> | null, limit: number) => Promise<T[]>, batchSize = 1000): AsyncGenerator<T> {
  let seek: Expression<SqlBool> | null = null;
  for (;;) {
    const batch = await read(seek, batchSize);
    yield* batch;
    if (batch.length < batchSize) return;
    seek = after(order, batch[batch.length - 1] as Record<string, unknown>);
    await yieldToEventLoop();
  }
}
