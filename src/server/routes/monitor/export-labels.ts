/** What the audit exports write for stored codes: the dictionaries' labels (times: contract/time.ts). */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** value -> label of a dictionary, read once per export; an unknown value shows as itself. */
export async function dictionaryLabels(db: Kysely<Database>, code: string): Promise<(value: string) => string> {
  const rows = await db.selectFrom('sysDict').select(['value', 'label']).where('code', '=', code).execute();
  const labels = new Map(rows.map((row) => [row.value, row.label]));
  return (value) => labels.get(value) ?? value;
}
