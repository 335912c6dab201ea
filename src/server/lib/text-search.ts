/**
 * "Contains" filters on the lists that grow without bound (devices, users), answered from the
 * trigram indexes of migration 013 rather than by reading every row.
 *
 * The result is exactly `contains()`'s (case-insensitive on ASCII, LIKE wildcards taken literally):
 * on SQLite the FTS5 trigram table only narrows the candidates (its case folding is wider, so it
 * finds a superset) and `contains()` decides. A term shorter than three characters has no trigram,
 * so it falls back to `contains()` alone, reading the table. PostgreSQL's pg_trgm indexes serve
 * `contains()`'s `lower(column) like` as it is.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Dialect } from '../db/connection';
import type { SEARCHED_COLUMNS } from '../db/migrations/013_substring_search';
import { contains } from './list-query';

type SearchedTable = keyof typeof SEARCHED_COLUMNS;

/** Where a list's searched column lives: its table (as in migration 013), the column, the row's id. */
export interface SearchedColumn<T extends SearchedTable = SearchedTable> {
  table: T;
  column: (typeof SEARCHED_COLUMNS)[T][number];
  /** The column and the row id as the list's query names them (e.g. 'u.userName', 'u.id'). */
  ref: Expression<string>;
  id: Expression<number>;
}

const TRIGRAM = 3;

/** An FTS5 phrase: the text in double quotes, its own double quotes doubled; the column filter in braces. */
const ftsPhrase = (column: string, text: string) => `{${column}} : "${text.replace(/"/g, '""')}"`;

export function searchContains(dialect: Dialect, searched: SearchedColumn, text: string): Expression<SqlBool> {
  const exact = contains(searched.ref, text);
  const term = text.trim();
  if (dialect !== 'sqlite' || [...term].length < TRIGRAM) return exact;
  const search = sql.table(`${searched.table}_search`);
  const candidates = sql<SqlBool>`${searched.id} in (select rowid from ${search} where ${search} match ${ftsPhrase(searched.column, term)})`;
  return sql<SqlBool>`(${candidates} and ${exact})`;
}
