/**
 * Repairs numbers that could not have passed today's validation (issue 8): the old request
 * coercion turned "Infinity" and "1e400" into ±Infinity, which SQLite stored in integer columns
 * (from then on every answer carrying the row failed). PostgreSQL refused such writes, so there
 * this finds nothing; the same statements run on both.
 *
 * Each value outside what an integer column holds becomes the value that behaves as the poisoned
 * one did: a state other than 1 meant "off" and isAuth other than 0 meant "needs a grant" (so
 * nothing becomes visible or enabled that was not), a sort order goes to the nearest end of its
 * range, a version starts again at 0.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';

const INT4_MAX = 2_147_483_647;
const SORT_MAX = 9999;

type Repair = (column: string) => RawBuilder<number>;
const constant =
  (value: number): Repair =>
  () =>
    sql<number>`${value}`;
const nearestEnd: Repair = (column) => sql<number>`CASE WHEN ${sql.ref(column)} > 0 THEN ${SORT_MAX} ELSE 0 END`;

const repairs: Record<string, Record<string, Repair>> = {
  sys_role: { state: constant(0), version: constant(0) },
  sys_user: { state: constant(0), version: constant(0) },
  sys_menu: { sort: nearestEnd, state: constant(0), is_auth: constant(1), version: constant(0) },
  sys_resource: { version: constant(0) },
  sys_dict: { sort: nearestEnd, state: constant(0), version: constant(0) },
  sys_schedule: { state: constant(0), version: constant(0) },
  hotel_device: { state: constant(0), online: constant(0), version: constant(0) },
  hotel_advanced: { state: constant(0), version: constant(0) },
};

export const finiteNumbers = {
  async up(db: Kysely<unknown>): Promise<void> {
    const anyDb = db as Kysely<Record<string, Record<string, number>>>;
    for (const [table, columns] of Object.entries(repairs)) {
      for (const [column, repair] of Object.entries(columns)) {
        await anyDb
          .updateTable(table)
          .set(column, repair(column))
          .where((eb) => eb.or([eb(column, '>', INT4_MAX), eb(column, '<', -INT4_MAX - 1)]))
          .execute();
      }
    }
  },
};
