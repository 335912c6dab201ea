/**
 * A device's presence (online, last_seen_at, online_since, offline_since) moves out of
 * `hotel_device` into a narrow table of its own, `hotel_device_presence (id, …)`, one row per
 * device, with the offline sweep's index on (online, last_seen_at, id).
 *
 * Why: heartbeats write these columns thousands of times a second (the last-seen flush) and the
 * sweep flips them, while nothing else about a device changes for months. In the wide row every
 * such write rewrote a ~180-byte row and, on PostgreSQL, put a new entry into each of the table's
 * five indexes (last_seen_at is in the sweep's index, so no update was HOT). Measured on a million
 * devices inside a rolled-back transaction, PostgreSQL: a flush of 250 random devices 43 -> 10 µs a
 * row, a sweep flip 14 -> 3.5 µs a device; SQLite: a flush row dirties a page of ~30-byte rows
 * rather than one of ~180-byte rows (25 -> 10 µs a row, random devices).
 *
 * Every device has its row: an insert into hotel_device creates it (a trigger, so every insert path
 * (the screens, an import, the seeds, a hand-written INSERT) gets it in the same statement); the
 * foreign key deletes it with the device.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

const COLUMNS = 'online, last_seen_at, online_since, offline_since';

export function devicePresence(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const postgres = dialect === 'postgres';
      const statements = [
        `create table hotel_device_presence (
           id integer primary key references hotel_device (id) on delete cascade,
           online integer not null default 0,
           last_seen_at bigint,
           online_since bigint,
           offline_since bigint
         )`,
        `insert into hotel_device_presence (id, ${COLUMNS}) select id, ${COLUMNS} from hotel_device`,
        // SQLite's index ends in the rowid, which is the id; PostgreSQL's needs it named (see 014).
        `create index hotel_device_presence_online_seen on hotel_device_presence (online, last_seen_at${postgres ? ', id' : ''})`,
        ...(postgres
          ? [
              // One trigger call per statement: an import of thousands is one INSERT … SELECT.
              `create function hotel_device_presence_added() returns trigger language plpgsql as $$ begin ` +
                `insert into hotel_device_presence (id) select id from added; return null; end $$`,
              `create trigger hotel_device_presence_insert after insert on hotel_device referencing new table as added for each statement execute function hotel_device_presence_added()`,
              `alter table hotel_device drop column online, drop column last_seen_at, drop column online_since, drop column offline_since`,
              `analyze hotel_device_presence`,
            ]
          : [
              `create trigger hotel_device_presence_insert after insert on hotel_device begin insert into hotel_device_presence (id) values (new.id); end`,
              // SQLite drops a column only once no index names it.
              `drop index hotel_device_online`,
              ...COLUMNS.split(', ').map((column) => `alter table hotel_device drop column ${column}`),
            ]),
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  };
}
