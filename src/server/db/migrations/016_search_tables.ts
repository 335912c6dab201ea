/**
 * PostgreSQL: the searched columns (013) move to a narrow table of their own per list,
 * `<table>_search (id, columns…)`, kept in step by triggers, as SQLite's FTS tables already are.
 *
 * Why: a heartbeat's flush and the offline sweep update `hotel_device` (last_seen_at and online are
 * in the sweep's index), and such an update writes a new row version into every index of the
 * table, the pg_trgm GIN indexes included. On a million devices those GIN entries were about 40 %
 * of each flush's and each sweep flip's database time (flush 55-76 vs 35-40 µs a row, flip 47-62
 * vs 28-32 µs a device), and the pending list they left behind slowed the searches themselves
 * (the sn index scan for "00012": 53 ms on the device table, 5 ms on its own). Only edits of the
 * searched columns touch the search table.
 *
 * - Inserts: one statement-level trigger copies the statement's new rows (an import of thousands
 *   is one INSERT … SELECT, not a trigger call per row).
 * - Edits: a row trigger on UPDATE OF the searched columns only, so updates of other columns (every
 *   heartbeat) never call it.
 * - Deletes: the foreign key cascades.
 * Where pg_trgm is not available (013 left the indexes out) the search table exists without them
 * and search stays correct, reading the narrow table. SQLite: nothing to do.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/** The lists whose searched columns have a search table (as 013 made them). */
const SEARCHED_COLUMNS = {
  hotel_device: ['name', 'sn'],
  sys_user: ['user_name', 'nick_name'],
} as const;

const searchTableOf = (table: string) => `${table}_search`;

/** On PostgreSQL, `postgresSearchTable` for every list's search table, told whether pg_trgm is installed (013 leaves it out where it cannot be); on SQLite nothing. */
export function searchTables(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      const trigrams = await sql<{ n: number }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(db);
      for (const [table, columns] of Object.entries(SEARCHED_COLUMNS)) await postgresSearchTable(db, table, columns, trigrams.rows[0]?.n === 1);
    },
  };
}

async function postgresSearchTable(db: Kysely<unknown>, table: string, columns: readonly string[], trigrams: boolean): Promise<void> {
  const search = searchTableOf(table);
  const list = columns.join(', ');
  const statements = [
    `create table ${search} as select id, ${list} from ${table}`,
    `alter table ${search} add primary key (id)`,
    `alter table ${search} add foreign key (id) references ${table} (id) on delete cascade`,
    `create function ${search}_added() returns trigger language plpgsql as $$ begin ` + `insert into ${search} (id, ${list}) select id, ${list} from added; return null; end $$`,
    `create trigger ${search}_insert after insert on ${table} referencing new table as added for each statement execute function ${search}_added()`,
    `create function ${search}_edited() returns trigger language plpgsql as $$ begin ` +
      `update ${search} set ${columns.map((column) => `${column} = new.${column}`).join(', ')} where id = new.id; return null; end $$`,
    `create trigger ${search}_update after update of ${list} on ${table} for each row execute function ${search}_edited()`,
    ...(trigrams ? columns.map((column) => `create index ${search}_${column}_trgm on ${search} using gin (lower(${column}) gin_trgm_ops)`) : []),
    ...columns.map((column) => `drop index if exists ${table}_${column}_trgm`),
    // Statistics at once: without them the planner took a search for a rare term for a common one
    // and walked the list's table in id order, probing the search table row by row.
    `analyze ${search}`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
