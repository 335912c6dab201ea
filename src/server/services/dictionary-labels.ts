/**
 * How stored values read in words: the labels of the data dictionaries. A screen reads its menu's
 * dictionary (`/sys/dict/resource/inquire`); exports and imports read the same entries through
 * `viewLabels`, so a file says 启用 where the screen does, and an import takes 启用 for 1. The
 * audit exports read a dictionary by its code (`dictionaryLabels`).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** value -> label of a dictionary, read once per export; an unknown value shows as itself. */
export async function dictionaryLabels(db: Kysely<Database>, code: string): Promise<(value: string) => string> {
  const rows = await db.selectFrom('sysDict').select(['value', 'label']).where('code', '=', code).execute();
  const labels = new Map(rows.map((row) => [row.value, row.label]));
  return (value) => labels.get(value) ?? value;
}

const FIELD_PREFIX = 'field_';

export async function menuDictEntries(db: Kysely<Database>, menuId: number) {
  const rows = await db
    .selectFrom('sysDictResource as dr')
    .innerJoin('sysResource as r', 'r.id', 'dr.resourceId')
    .innerJoin('sysDict as d', 'd.id', 'dr.dictId')
    .select(['r.id as resourceId', 'r.type', 'd.id as dictId', 'd.code', 'd.label', 'd.value', 'd.sort'])
    .where('r.menuId', '=', menuId)
    .where('r.type', 'like', `${FIELD_PREFIX}%`)
    .where('d.state', '=', 1)
    .orderBy('r.id')
    .orderBy('d.sort')
    .orderBy('d.id')
    .execute();
  return rows.map(({ type, ...row }) => ({ ...row, field: type.slice(FIELD_PREFIX.length) }));
}

export interface ViewLabels {
  /** The label of a stored value, or the value itself when the dictionary has none (as on screen). */
  labelOf(field: string, value: unknown): string;
  /** The stored value a label (or the value itself) stands for; undefined when neither matches. */
  valueOf(field: string, text: string): string | undefined;
  /** The labels of a field, in dictionary order. */
  labelsOf(field: string): string[];
}

/** The menu dictionary of the screen whose menu element is `element`. */
export async function viewLabels(db: Kysely<Database>, element: string): Promise<ViewLabels> {
  const menu = await db.selectFrom('sysMenu').select('id').where('element', '=', element).orderBy('id').executeTakeFirst();
  const entries = menu ? await menuDictEntries(db, menu.id) : [];
  const of = (field: string) => entries.filter((entry) => entry.field === field);
  return {
    labelOf: (field, value) => {
      if (value === null || value === undefined) return '';
      // Stored values are numbers or strings; the dictionary keeps their text.
      const raw = typeof value === 'string' ? value : JSON.stringify(value);
      return of(field).find((entry) => entry.value === raw)?.label ?? raw;
    },
    valueOf: (field, text) => {
      const options = of(field);
      return (options.find((entry) => entry.label === text) ?? options.find((entry) => entry.value === text))?.value;
    },
    labelsOf: (field) => of(field).map((entry) => entry.label),
  };
}
