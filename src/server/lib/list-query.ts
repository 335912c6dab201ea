/**
 * Building blocks of list inquiries: one page of rows plus its total from one count query, and a
 * "contains" filter that treats the user's text as text (LIKE wildcards in it are escaped).
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Paged } from '../../contract/constants';

export interface PageRequest {
  size: number;
  current: number;
}

/**
 * Runs the count, then the rows of the asked page; a page past the end costs no second query and
 * answers no records with the true total.
 */
export async function fetchPage<T>(
  request: PageRequest,
  count: () => Promise<{ n: number | string | bigint }>,
  rows: (limit: number, offset: number) => Promise<T[]>,
): Promise<Paged<T>> {
  const total = Number((await count()).n);
  const offset = (request.current - 1) * request.size;
  const records = offset < total ? await rows(request.size, offset) : [];
  return { records, current: request.current, size: request.size, total };
}

/** A text filter the user left blank is no filter: forms send '' for an empty field. */
export const given = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/** Case-insensitive substring match that behaves the same on SQLite and PostgreSQL. */
export function contains(column: Expression<string>, text: string): Expression<SqlBool> {
  const pattern = `%${text.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${column}) like ${pattern} escape '\\'`;
}
