/**
 * Markers of the built-ins a database has received (services/builtins/sync.ts). A database seeded
 * before markers existed gets an empty table: the start-up sync then marks each built-in it already
 * holds (a row equal by natural key is adopted, not inserted) and inserts only the missing ones.
 */
import type { Kysely } from 'kysely';

export const builtinMarkers = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('sys_builtin')
      .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
