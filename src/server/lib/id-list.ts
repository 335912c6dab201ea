/**
 * A list of ids (or other keys) as ONE bound parameter (a JSON array on SQLite, an array on
 * PostgreSQL), however many there are: no statement with thousands of placeholders to build, bind
 * and plan, and one SQL text whatever the count, so a compiled statement can be run again with
 * another list (`listParameter`).
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Dialect } from '../db/dialect';

/** The bound value that stands for `values` in the statements below. */
export const listParameter = (dialect: Dialect, values: readonly unknown[]): unknown => (dialect === 'sqlite' ? JSON.stringify(values) : values);

/**
 * The ids as rows of one column `id`: INSERT … SELECT then writes a batch without a VALUES list
 * built and bound per row.
 */
export const idRows = (dialect: Dialect, ids: readonly number[]) =>
  dialect === 'sqlite' ? sql`select value as id from json_each(${listParameter(dialect, ids)})` : sql`select unnest(${ids}::int[]) as id`;

/** `column` is one of `values`, which PostgreSQL binds as an array of `arrayType`. */
const inList = (dialect: Dialect, column: string, values: readonly unknown[], arrayType: 'int' | 'text') =>
  dialect === 'sqlite'
    ? sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${listParameter(dialect, values)}))`
    : sql<SqlBool>`${sql.ref(column)} = any(${values}::${sql.raw(arrayType)}[])`;

/**
 * `column` is one of the ids. On PostgreSQL `= any(array)`, which the planner always answers from
 * the column's index: an `IN (SELECT unnest …)` became a join that read the table once per id when
 * its statistics were stale (1.9 s for 5,000 devices).
 */
export const idIn = (dialect: Dialect, column: string, ids: readonly number[]) => inList(dialect, column, ids, 'int');

/**
 * `column` is one of the ids a subquery picks (a page's ids, LIMITed). On PostgreSQL
 * `= any(array(subquery))`: the subquery runs once, first, and the rows are found by the column's
 * index, where `IN (subquery)` is planned as a join of the two (at 1 M devices, 0.51-0.53 ms a call
 * for the device page's statement against 0.62-0.69 ms, and less planning of the scope repeated
 * outside). SQLite already runs `IN (subquery)` that way.
 */
export const idInSubquery = (dialect: Dialect, column: string, ids: Expression<unknown>) =>
  dialect === 'sqlite' ? sql<SqlBool>`${sql.ref(column)} in (${ids})` : sql<SqlBool>`${sql.ref(column)} = any(array(${ids}))`;

/** `column` is one of the texts (serial numbers, say), each found through the column's index. */
export const textIn = (dialect: Dialect, column: string, texts: readonly string[]) => inList(dialect, column, texts, 'text');

/** How PostgreSQL types a column of `valueRows`' arrays (SQLite reads each value from its JSON). */
export type RowColumnType = 'int' | 'bigint' | 'text';

/**
 * Rows of named columns, again as parameters (one JSON array of rows on SQLite, an array per column
 * on PostgreSQL): a set-based UPDATE … FROM then writes each row's own values with one constant
 * statement (kept compiled), not a statement per row or a CASE of literals. Name the columns in
 * lower-case words: the statement that reads them refers to them by name.
 */
export function valueRows(dialect: Dialect, columns: Readonly<Record<string, RowColumnType>>, rows: readonly (readonly unknown[])[]) {
  const names = Object.keys(columns);
  if (dialect === 'sqlite') {
    const picked = names.map((name, i) => sql`json_extract(value, ${sql.lit(`$[${i}]`)}) as ${sql.ref(name)}`);
    return sql`select ${sql.join(picked)} from json_each(${JSON.stringify(rows)})`;
  }
  const arrays = names.map((name, i) => sql`${rows.map((row) => row[i])}::${sql.raw(columns[name])}[]`);
  return sql`select * from unnest(${sql.join(arrays)}) as r(${sql.join(names.map((name) => sql.ref(name)))})`;
}

/** Rows (id, value) from two parallel lists: `valueRows` of two columns. */
export const idValueRows = (dialect: Dialect, ids: readonly number[], values: readonly number[]) =>
  valueRows(
    dialect,
    { id: 'int', value: 'bigint' },
    ids.map((id, i) => [id, values[i]]),
  );
