/**
 * PostgreSQL: the search tables (016) hold their columns already folded to lower case, and their
 * trigram indexes are on the columns themselves rather than on lower(column).
 *
 * Why: a search for a term that matches many devices ("00012": 10,000 of a million) reads its
 * first page by walking the search table in id order, testing each row, as the cheapest plan there
 * is; calling lower() on every row tested was half of that walk (25,000 rows: 5.2 ms, folded 2.7 ms
 * on the 2-core machine), and the index recheck of a capped count calls it too. Folding once per
 * write is the same function on the same text, so a search finds exactly what it found before.
 *
 * The triggers fold what they copy. The rows already there are copied folded into a new table that
 * takes the old one's place (an UPDATE of every row would leave the table and its primary key
 * twice their size until a vacuum, which a migration's transaction cannot run), and the indexes
 * are built on it. Where pg_trgm is not available (013) no index is built, as before.
 * SQLite: nothing to do (its FTS5 trigram tables fold case themselves).
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/** The lists whose searched columns have a search table (as 013 made them). */
const SEARCHED_COLUMNS = {
  hotel_device: ['name', 'sn'],
  sys_user: ['user_name', 'nick_name'],
} as const;

const searchTableOf = (table: string) => `${table}_search`;

/** On PostgreSQL, `foldSearchTable` for every list's search table, told whether pg_trgm is installed (013 leaves it out where it cannot be); on SQLite nothing. */
export function foldedSearch(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      const trigrams = await sql<{ n: number }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(db);
      for (const [table, columns] of Object.entries(SEARCHED_COLUMNS)) await foldSearchTable(db, table, columns, trigrams.rows[0]?.n === 1);
    },
  };
}

async function foldSearchTable(db: Kysely<unknown>, table: string, columns: readonly string[], trigrams: boolean): Promise<void> {
  const search = searchTableOf(table);
  const list = columns.join(', ');
  const folded = (from: string) => columns.map((column) => `lower(${from}${column})`).join(', ');
  const statements = [
    `create table ${search}_folded (like ${search})`,
    `insert into ${search}_folded (id, ${list}) select id, ${folded('')} from ${search}`,
    `drop table ${search}`,
    `alter table ${search}_folded rename to ${search}`,
    `alter table ${search} add primary key (id)`,
    `alter table ${search} add foreign key (id) references ${table} (id) on delete cascade`,
    `create or replace function ${search}_added() returns trigger language plpgsql as $$ begin ` +
      `insert into ${search} (id, ${list}) select id, ${folded('')} from added; return null; end $$`,
    `create or replace function ${search}_edited() returns trigger language plpgsql as $$ begin ` +
      `update ${search} set ${columns.map((column) => `${column} = lower(new.${column})`).join(', ')} where id = new.id; return null; end $$`,
    ...(trigrams ? columns.map((column) => `create index ${search}_${column}_trgm on ${search} using gin (${column} gin_trgm_ops)`) : []),
    `analyze ${search}`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
