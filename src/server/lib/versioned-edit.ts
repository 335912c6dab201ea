/**
 * The edit of a record under optimistic locking, in one place: load it (404), compare the version
 * the form read (409 stale), run the screen's own checks, refuse a unique value another record
 * holds (409 naming it), then update only if the version is still the same (409 stale if an edit
 * slipped in between) and answer the saved row. A unique clash racing past the pre-check is a 409 too.
 */
import type { Kysely } from 'kysely';
import type { Database, Row, RowPatch } from '../db/schema';
import { conflict, notFound, staleEdit } from './errors';
import { uniquely } from './conflicts';

/** Tables edited with a version and one unique text column (name or serial number). */
type EditableTable = 'hotelAdvanced' | 'hotelDevice' | 'sysSchedule' | 'notifyChannel' | 'notifyRule' | 'notifyMaintenance';
type UniqueColumn<T extends EditableTable> = T extends 'hotelDevice' ? 'sn' : 'name';

// Kysely cannot type a query over a table chosen by a type parameter; the callers' types are exact.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const loose = (db: Kysely<Database>) => db as unknown as Kysely<any>;

/** Does another record (not `exceptId`) already hold `value` in the unique `column`? */
export async function valueTaken<T extends EditableTable>(db: Kysely<Database>, table: T, column: UniqueColumn<T>, value: string, exceptId?: number): Promise<boolean> {
  let query = loose(db)
    .selectFrom(table as string)
    .select('id')
    .where(column as string, '=', value);
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export interface EditPlan<T extends EditableTable> {
  table: T;
  /** What the edit form sent back: the record and the version it read. */
  edit: { id: number; version: number };
  /** The record's Chinese name, for "…不存在". */
  noun: string;
  unique: { column: UniqueColumn<T>; value: string; message: string };
  /** The screen's own rules, given the stored record (may throw a 400). */
  check?: (current: Row<T>) => void | Promise<void>;
  /** The columns to write; updatedAt and version are added here. */
  changes: (current: Row<T>, now: number) => RowPatch<T>;
}

export async function versionedEdit<T extends EditableTable>(db: Kysely<Database>, plan: EditPlan<T>): Promise<Row<T>> {
  const { table, edit, unique } = plan;
  const current = (await loose(db)
    .selectFrom(table as string)
    .selectAll()
    .where('id', '=', edit.id)
    .executeTakeFirst()) as Row<T> | undefined;
  if (!current) throw notFound(plan.noun);
  if ((current as { version: number }).version !== edit.version) throw staleEdit();
  await plan.check?.(current);
  const stored = (current as Record<string, unknown>)[unique.column];
  if (unique.value !== stored && (await valueTaken(db, table, unique.column, unique.value, edit.id))) throw conflict(unique.message);

  const now = Date.now();
  const row = await uniquely(
    () =>
      loose(db)
        .updateTable(table as string)
        .set({ ...(plan.changes(current, now) as Record<string, unknown>), updatedAt: now, version: edit.version + 1 })
        .where('id', '=', edit.id)
        .where('version', '=', edit.version)
        .returningAll()
        .executeTakeFirst() as Promise<Row<T> | undefined>,
    unique.message,
  );
  if (!row) throw staleEdit();
  return row;
}
