/** Reads of notification rules as answers show them: lists parsed, the unit by name, the location as its path. */
import type { Kysely } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { Database, Row } from '../../../db/schema';
import type { RuleRecord } from '../../../../contract/monitor/rule';
import { LocationIndex } from '../../../services/location-paths';
import { parseJsonList } from '../../../lib/json-list';

export type RuleAnswer = Static<typeof RuleRecord>;

export async function toRuleRecords(db: Kysely<Database>, rows: Row<'notifyRule'>[]): Promise<RuleAnswer[]> {
  const locations = await LocationIndex.of(
    db,
    rows.map((row) => row.locationId),
  );
  const orgIds = [...new Set(rows.flatMap((row) => (row.orgId === null ? [] : [row.orgId])))];
  const units = orgIds.length === 0 ? [] : await db.selectFrom('sysOrg').select(['id', 'name']).where('id', 'in', orgIds).execute();
  const unitNames = new Map(units.map((unit) => [unit.id, unit.name]));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    state: row.state,
    alarmTypes: parseJsonList<string>(row.alarmTypes),
    minSeverity: row.minSeverity,
    orgId: row.orgId,
    orgName: row.orgId === null ? '' : (unitNames.get(row.orgId) ?? ''),
    locationId: row.locationId,
    locationPath: locations.pathOf(row.locationId),
    symptoms: row.symptoms,
    channelIds: parseJsonList<number>(row.channelIds),
    quietStart: row.quietStart,
    quietEnd: row.quietEnd,
    escalation: parseJsonList<RuleAnswer['escalation'][number]>(row.escalation),
    remark: row.remark,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }));
}

export async function findRuleRecord(db: Kysely<Database>, id: number): Promise<RuleAnswer | undefined> {
  const row = await db.selectFrom('notifyRule').selectAll().where('id', '=', id).executeTakeFirst();
  return row && (await toRuleRecords(db, [row]))[0];
}
