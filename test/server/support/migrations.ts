/**
 * Migration tests: a Kysely handle on a throw-away database (camel-case names, as the app has them)
 * and the migrations before a given one, so a test can fill the schema as it stood then and run
 * the rest.
 */
import { CamelCasePlugin, Kysely, Migrator, PostgresDialect, SqliteDialect, type MigrationProvider } from 'kysely';
import { Pool } from 'pg';
import type { Dialect } from '../../../src/server/db/dialect';
import { CodeMigrationProvider } from '../../../src/server/db/migrations';
import { createTestDatabase, type TestDatabase } from './harness';

export async function openTestKysely<DB>(target: TestDatabase): Promise<Kysely<DB>> {
  const { default: SQLite } = await import('better-sqlite3');
  return new Kysely<DB>({
    dialect:
      target.dialect === 'sqlite' ? new SqliteDialect({ database: new SQLite(target.sqliteFile) }) : new PostgresDialect({ pool: new Pool({ connectionString: target.url }) }),
    plugins: [new CamelCasePlugin()],
  });
}

/** Applies the migrations whose names sort before `stop` (e.g. '012'), or all of them without it; answers the migrator's error, if any. */
export async function migrateUpTo<DB>(db: Kysely<DB>, dialect: Dialect, stop?: string): Promise<unknown> {
  const all = await new CodeMigrationProvider(dialect).getMigrations();
  const provider: MigrationProvider = { getMigrations: () => Promise.resolve(stop === undefined ? all : Object.fromEntries(Object.entries(all).filter(([name]) => name < stop))) };
  return (await new Migrator({ db, provider }).migrateToLatest()).error;
}

/** Runs `test` on a Kysely handle over a throw-away database of `dialect`, closed and dropped after. */
export async function onThrowawayDatabase<DB>(dialect: Dialect, test: (db: Kysely<DB>) => Promise<void>): Promise<void> {
  const target = await createTestDatabase(dialect);
  const db = await openTestKysely<DB>(target);
  try {
    await test(db);
  } finally {
    await db.destroy();
    await target.drop();
  }
}
