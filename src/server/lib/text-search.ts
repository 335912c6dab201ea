/**
 * "Contains" filters on the lists that grow without bound (devices, users), answered from the
 * trigram indexes of migrations 013 and 016 (db/search-tables.ts) rather than by reading every row.
 *
 * The result is exactly `contains()`'s (case-insensitive on ASCII, LIKE wildcards taken literally):
 * on SQLite the FTS5 trigram table only narrows the candidates (its case folding is wider, so it
 * finds a superset) and `contains()` decides. A term shorter than three characters has no trigram,
 * so it falls back to `contains()` alone, reading the table. On PostgreSQL the searched columns
 * are copied into `<table>_search` in lower case (migrations 016 and 018, kept in step by
 * triggers), whose pg_trgm indexes serve `column like` as it is: that table is joined to the
 * list's and `containsFolded()` reads its columns.
 *
 * On SQLite the FTS table drives the query: it is joined to the list's table and yields its
 * matches in rowid (= id) order, so a page in id order or a capped count stops after the rows it
 * needs. (As `id in (select rowid … match …)` SQLite first collected every match: a broad term
 * such as "00012" matches tens of thousands of devices.) The list then orders by the FTS rowid,
 * `idColumn`, which SQLite knows the FTS table already delivers in order.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Dialect } from '../db/dialect';
import { searchTableOf, type SEARCHED_COLUMNS, type SearchedTable } from '../db/search-tables';
import { contains, containsFolded, given } from './list-query';

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
 * texts are no filter. On SQLite every given term is checked exactly, and those of three characters
 * or more are also one FTS5 query (their phrases ANDed) that drives the list; on PostgreSQL every
 * given term is checked on the joined search table, through its trigram indexes.
 */
export function listSearch<T extends SearchedTable>(dialect: Dialect, table: T, idColumn: string, terms: Array<ContainsTerm<T>>): ListSearch {
  const asked = terms.flatMap((term) => (given(term.text) ? [{ ...term, text: term.text }] : []));
  const searching = asked.length > 0;
  const search = searchTableOf(table);
  if (dialect === 'postgres') {
    if (!searching) return { apply: (query) => query, idColumn, searching };
    const onSearchTable = asked.map((term) => containsFolded(sql.ref(`${MATCHED}.${term.column}`), term.text));
    return {
      idColumn: `${MATCHED}.id`,
      searching,
      apply: (query) => onSearchTable.reduce((q, expression) => q.where(expression), joinMatched(query, search, idColumn, `${MATCHED}.id`)),
    };
  }
  const exact = asked.map((term) => contains(term.ref, term.text));
  const indexed = asked.filter((term) => [...term.text.trim()].length >= TRIGRAM);
  const filtered = <Q extends Searchable<Q>>(query: Q) => exact.reduce((q, expression) => q.where(expression), query);
  if (indexed.length === 0) return { apply: filtered, idColumn, searching };

  const match = indexed.map((term) => ftsPhrase(term.column, term.text.trim())).join(' AND ');
  return {
    idColumn: `${MATCHED}.rowid`,
    searching,
    apply: (query) => filtered(joinMatched(query, search, idColumn, `${MATCHED}.rowid`).where(sql<SqlBool>`${sql.ref(`${MATCHED}.${search}`)} match ${match}`)),
  };
}

/**
 * `query` joined to the search table `search` as MATCHED, its `key` equal to the list's id. The
 * table is referred to only in SQL text, so the builder's row type does not change; Kysely's join is
 * reached through a cast for the same reason.
 */
function joinMatched<Q extends Searchable<Q>>(query: Q, search: string, idColumn: string, key: string): Q {
  const joinable = query as unknown as {
    innerJoin(table: unknown, on: (join: { on(expression: Expression<SqlBool>): unknown }) => unknown): Q;
  };
  return joinable.innerJoin(sql.table(search).as(MATCHED), (join) => join.on(sql<SqlBool>`${sql.ref(key)} = ${sql.ref(idColumn)}`));
}
