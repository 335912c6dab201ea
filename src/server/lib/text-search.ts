/**
 * "Contains" filters on the lists that grow without bound (devices, users), answered from the
 * trigram indexes of migration 013 rather than by reading every row.
 *
 * The result is exactly `contains()`'s (case-insensitive on ASCII, LIKE wildcards taken literally):
 * on SQLite the FTS5 trigram table only narrows the candidates (its case folding is wider, so it
 * finds a superset) and `contains()` decides. A term shorter than three characters has no trigram,
 * so it falls back to `contains()` alone, reading the table. PostgreSQL's pg_trgm indexes serve
 * `contains()`'s `lower(column) like` as it is.
 *
 * On SQLite the FTS table drives the query: it is joined to the list's table and yields its
 * matches in rowid (= id) order, so a page in id order or a capped count stops after the rows it
 * needs. (As `id in (select rowid … match …)` SQLite first collected every match: a broad term
 * such as "00012" matches tens of thousands of devices.) The list then orders by the FTS rowid,
 * `idColumn`, which SQLite knows the FTS table already delivers in order.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Dialect } from '../db/connection';
import type { SEARCHED_COLUMNS } from '../db/migrations/013_substring_search';
import { contains, given } from './list-query';

type SearchedTable = keyof typeof SEARCHED_COLUMNS;

/** One "contains" filter of a list: the searched column (as in migration 013), its reference in the list's query, the user's text. */
export interface ContainsTerm<T extends SearchedTable> {
  column: (typeof SEARCHED_COLUMNS)[T][number];
  ref: Expression<string>;
  text: string | undefined;
}

/** The part of a select query builder a search needs; the join keeps the builder's type (see below). */
interface Searchable<Q> {
  where(expression: Expression<SqlBool>): Q;
}

export interface ListSearch {
  /** Adds the list's "contains" filters to `query` (the list's rows, before order and paging). */
  apply<Q extends Searchable<Q>>(query: Q): Q;
  /** What the list orders by for its id: the FTS rowid while the FTS table drives the query. */
  idColumn: string;
  /** Whether any term is given: the list is then filtered by a search (see fetchMatchedPage). */
  searching: boolean;
}

const TRIGRAM = 3;
/** The alias of the FTS table joined into a list's query. */
const MATCHED = 'matched';

/** An FTS5 phrase: the text in double quotes, its own double quotes doubled; the column filter in braces. */
const ftsPhrase = (column: string, text: string) => `{${column}} : "${text.replace(/"/g, '""')}"`;

/**
 * The "contains" filters `terms` of a list over `table` whose id is `idColumn` (e.g. 'u.id'); blank
 * texts are no filter. Every given term is checked exactly; on SQLite those of three characters or
 * more are also one FTS5 query (their phrases ANDed) that drives the list.
 */
export function listSearch<T extends SearchedTable>(dialect: Dialect, table: T, idColumn: string, terms: Array<ContainsTerm<T>>): ListSearch {
  const asked = terms.flatMap((term) => (given(term.text) ? [{ ...term, text: term.text }] : []));
  const exact = asked.map((term) => contains(term.ref, term.text));
  const indexed = dialect === 'sqlite' ? asked.filter((term) => [...term.text.trim()].length >= TRIGRAM) : [];
  const filtered = <Q extends Searchable<Q>>(query: Q) => exact.reduce((q, expression) => q.where(expression), query);
  const searching = asked.length > 0;
  if (indexed.length === 0) return { apply: filtered, idColumn, searching };

  const search = `${table}_search`;
  const match = indexed.map((term) => ftsPhrase(term.column, term.text.trim())).join(' AND ');
  return {
    idColumn: `${MATCHED}.rowid`,
    searching,
    apply: (query) => {
      // The joined FTS table is referred to only in SQL text here, so the builder's row type does
      // not change; Kysely's join is reached through a cast for the same reason.
      const joinable = query as unknown as {
        innerJoin(table: unknown, on: (join: { on(expression: Expression<SqlBool>): unknown }) => unknown): typeof query;
      };
      const joined = joinable.innerJoin(sql.table(search).as(MATCHED), (join) => join.on(sql<SqlBool>`${sql.ref(`${MATCHED}.rowid`)} = ${sql.ref(idColumn)}`));
      return filtered(joined.where(sql<SqlBool>`${sql.ref(`${MATCHED}.${search}`)} match ${match}`));
    },
  };
}
