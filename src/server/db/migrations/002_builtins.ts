/**
 * Markers of the built-ins a database has received (see db/builtins.ts). A database seeded before
 * markers existed adopts the built-ins it already holds, so the start-up sync adds only new ones.
 */
import { CamelCasePlugin, type Kysely } from 'kysely';
import { syncBuiltins } from '../builtins';

export const builtinMarkers = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('sys_builtin')
      .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    // The sync names tables in camelCase; the plugin is idempotent if the migrator's handle has it.
    await syncBuiltins(db.withPlugin(new CamelCasePlugin()), undefined, 'adoptOnly');
  },
};
