/**
 * The lists searched by "contains" through an index, and their searched columns: the tables
 * migrations 013, 016 and 018 built (an FTS5 trigram table on SQLite, a folded copy with pg_trgm
 * indexes on PostgreSQL), as the running server reads them (lib/text-search.ts).
 */
export const SEARCHED_COLUMNS = {
  hotel_device: ['name', 'sn'],
  sys_user: ['user_name', 'nick_name'],
} as const;

export type SearchedTable = keyof typeof SEARCHED_COLUMNS;

/** The table that indexes a list's searched columns: `<table>_search`. */
export const searchTableOf = (table: SearchedTable) => `${table}_search`;
