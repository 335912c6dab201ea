/** Reads of maintenance windows as answers show them, the location as its path. */
import type { Kysely } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { Database, Row } from '../../../db/schema';
import type { MaintenanceRecord } from '../../../../contract/monitor/maintenance';
import { LocationIndex } from '../../../services/location-paths';

export type MaintenanceAnswer = Static<typeof MaintenanceRecord>;

export async function toMaintenanceRecords(db: Kysely<Database>, rows: Row<'notifyMaintenance'>[]): Promise<MaintenanceAnswer[]> {
  const locations = await LocationIndex.of(
    db,
    rows.map((row) => row.locationId),
  );
  return rows.map((row) => ({ ...row, locationPath: locations.pathOf(row.locationId) }));
}

export async function findMaintenanceRecord(db: Kysely<Database>, id: number): Promise<MaintenanceAnswer | undefined> {
  const row = await db.selectFrom('notifyMaintenance').selectAll().where('id', '=', id).executeTakeFirst();
  return row && (await toMaintenanceRecords(db, [row]))[0];
}
