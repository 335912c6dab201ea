/**
 * Live devices per unit (issue 26): `hotel_device_unit_count (org_id, live)`, kept in step with
 * hotel_device by triggers, so the total of a scope's whole device list is a sum over its units'
 * rows instead of a count of every live device of the scope (a hotel's 4,000, each row read to
 * check `deleted_at`). A device without a unit counts under org_id 0 (no unit has that id), so the
 * sum over every row is the whole fleet.
 *
 * The triggers fire on what changes the count only: an insert, a delete, and an update of org_id
 * or deleted_at that moves a live device or makes one live or deleted. Heartbeats write the
 * presence table and never reach them. On PostgreSQL an insert is one trigger call per statement
 * (an import of thousands is one INSERT … SELECT), as the search and presence tables' are.
 *
 * PostgreSQL also keeps a finer histogram of the device search table's columns. With the default
 * one (100 values) a "contains" pattern found in none of them is estimated at about 1% of the
 * devices (2,020 of 200,000 for "酒店050-8", which matches 200), so for a scoped search the planner
 * read every device of the scope (a hotel's 4,000) into a hash join instead of looking up each
 * match by id; the unscoped search, with no such index to read, looked them up. With 1,000 values
 * the estimate is 20, and a broad term (门锁: 49,850 estimated, 50,000 found) still gets the join.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

const TABLE = 'hotel_device_unit_count';
/** A device's key in the count table. */
const unitOf = (row: 'new' | 'old' | 'd') => `coalesce(${row}.org_id, 0)`;
const bump = (key: string, by: string) => `insert into ${TABLE} (org_id, live) values (${key}, ${by}) on conflict (org_id) do update set live = ${TABLE}.live + excluded.live`;

function postgresTriggers(): string[] {
  const fromTable = (table: string, sign: string) =>
    `insert into ${TABLE} (org_id, live) select ${unitOf('d')}, ${sign}count(*) from ${table} d where d.deleted_at is null group by 1 ` +
    `on conflict (org_id) do update set live = ${TABLE}.live + excluded.live`;
  return [
    `create function ${TABLE}_added() returns trigger language plpgsql as $$ begin ${fromTable('added', '')}; return null; end $$`,
    `create trigger ${TABLE}_insert after insert on hotel_device referencing new table as added for each statement execute function ${TABLE}_added()`,
    `create function ${TABLE}_removed() returns trigger language plpgsql as $$ begin ${fromTable('removed', '-')}; return null; end $$`,
    `create trigger ${TABLE}_delete after delete on hotel_device referencing old table as removed for each statement execute function ${TABLE}_removed()`,
    // A column list and transition tables do not go together: an update is a row trigger, which
    // its WHEN clause keeps to the rows whose count changes.
    `create function ${TABLE}_moved() returns trigger language plpgsql as $$ begin ` +
      `if old.deleted_at is null then ${bump(unitOf('old'), '-1')}; end if; ` +
      `if new.deleted_at is null then ${bump(unitOf('new'), '1')}; end if; ` +
      `return null; end $$`,
    `create trigger ${TABLE}_update after update of org_id, deleted_at on hotel_device for each row ` +
      `when (old.org_id is distinct from new.org_id or (old.deleted_at is null) <> (new.deleted_at is null)) execute function ${TABLE}_moved()`,
  ];
}

/** Values the search table's histograms keep (see above); ANALYZE applies them now rather than at autovacuum's next visit. */
const SEARCH_STATISTICS = 1000;
const finerSearchStatistics = () => [
  `alter table hotel_device_search alter column name set statistics ${SEARCH_STATISTICS}, alter column sn set statistics ${SEARCH_STATISTICS}`,
  `analyze hotel_device_search`,
];

function sqliteTriggers(): string[] {
  return [
    `create trigger ${TABLE}_insert after insert on hotel_device when new.deleted_at is null begin ${bump(unitOf('new'), '1')}; end`,
    `create trigger ${TABLE}_delete after delete on hotel_device when old.deleted_at is null begin ${bump(unitOf('old'), '-1')}; end`,
    `create trigger ${TABLE}_update_old after update of org_id, deleted_at on hotel_device ` +
      `when old.deleted_at is null and (new.org_id is not old.org_id or new.deleted_at is not null) begin ${bump(unitOf('old'), '-1')}; end`,
    `create trigger ${TABLE}_update_new after update of org_id, deleted_at on hotel_device ` +
      `when new.deleted_at is null and (new.org_id is not old.org_id or old.deleted_at is not null) begin ${bump(unitOf('new'), '1')}; end`,
  ];
}

export function deviceUnitCount(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const statements = [
        `create table ${TABLE} (org_id integer primary key, live integer not null)`,
        `insert into ${TABLE} (org_id, live) select ${unitOf('d')}, count(*) from hotel_device d where d.deleted_at is null group by 1`,
        ...(dialect === 'postgres' ? [...postgresTriggers(), ...finerSearchStatistics()] : sqliteTriggers()),
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  };
}
