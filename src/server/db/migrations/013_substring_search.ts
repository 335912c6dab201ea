/**
 * Substring ("contains") search that uses an index instead of reading every row (issue 10): the
 * device list's name and serial number, the user list's user name and nickname.
 *
 * - SQLite: an FTS5 table per list with the trigram tokenizer (`<table>_search`, external content:
 *   it stores only the index), kept in step by triggers. Updates of other columns (a heartbeat's
 *   last-seen time) do not touch it.
 * - PostgreSQL: pg_trgm GIN indexes on lower(column), which serve `lower(column) like '%text%'`
 *   as it is. Where the extension cannot be installed (a managed database that forbids it), the
 *   indexes are left out and search stays correct, reading the table.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/** The searchable columns of each list (the running server's own list: db/search-tables.ts). */
const SEARCHED_COLUMNS = {
  hotel_device: ['name', 'sn'],
  sys_user: ['user_name', 'nick_name'],
} as const;

/** The table that indexes a list's searched columns (FTS5 on SQLite). */
const searchTableOf = (table: string) => `${table}_search`;

export function substringSearch(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const [table, columns] of Object.entries(SEARCHED_COLUMNS)) {
        if (dialect === 'sqlite') await sqliteTrigramTable(db, table, columns);
        else await postgresTrigramIndexes(db, table, columns);
      }
    },
  };
}

async function sqliteTrigramTable(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  const search = searchTableOf(table);
  const list = columns.join(', ');
  const fromNew = columns.map((column) => `new.${column}`).join(', ');
  const fromOld = columns.map((column) => `old.${column}`).join(', ');
  const statements = [
    `create virtual table ${search} using fts5(${list}, content='${table}', content_rowid='id', tokenize='trigram case_sensitive 0')`,
    `create trigger ${search}_insert after insert on ${table} begin insert into ${search}(rowid, ${list}) values (new.id, ${fromNew}); end`,
    `create trigger ${search}_delete after delete on ${table} begin insert into ${search}(${search}, rowid, ${list}) values ('delete', old.id, ${fromOld}); end`,
    `create trigger ${search}_update after update of ${list} on ${table} begin ` +
      `insert into ${search}(${search}, rowid, ${list}) values ('delete', old.id, ${fromOld}); ` +
      `insert into ${search}(rowid, ${list}) values (new.id, ${fromNew}); end`,
    // Rows written before this migration.
    `insert into ${search}(${search}) values ('rebuild')`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

async function postgresTrigramIndexes(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  const available = await sql<{ n: number }>`select count(*)::int as n from pg_available_extensions where name = 'pg_trgm'`.execute(db);
  if (available.rows[0]?.n !== 1) return;
  await sql`create extension if not exists pg_trgm`.execute(db);
  for (const column of columns) await sql.raw(`create index ${table}_${column}_trgm on ${table} using gin (lower(${column}) gin_trgm_ops)`).execute(db);
}
