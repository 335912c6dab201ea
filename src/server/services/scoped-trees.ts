/**
 * The unit tree and the location tree as one caller's data scope shows them: read by the screens
 * that own them (组织管理, 设备管理's 查询位置) and by every screen's pickers (contract/pickers.ts),
 * so a picker never offers more, or other, rows than the owner's own read would.
 */
import type { Kysely } from 'kysely';
import type { Database, Row } from '../db/schema';
import type { OrgRecord } from '../../contract/sys/org';
import type { LocationRecord } from '../../contract/hotel/location';
import { hasOrg, holdsRow, type DataScope } from '../lib/data-scope';

type Db = Kysely<Database>;

export const ORG_COLUMNS = ['id', 'pid', 'name', 'kind', 'code', 'state', 'sort', 'remark', 'createdAt', 'updatedAt', 'version'] as const;

/** The scope's units, in tree order; a unit whose parent is out of scope becomes a root. */
export async function orgTree(db: Db, scope: DataScope): Promise<OrgRecord[]> {
  const rows = await db.selectFrom('sysOrg').select(ORG_COLUMNS).orderBy('sort').orderBy('id').execute();
  return rows.filter((row) => hasOrg(scope, row.id)).map((row) => (row.pid === null || hasOrg(scope, row.pid) ? row : { ...row, pid: null }));
}

export const toLocationRecord = (row: Row<'hotelLocation'>): LocationRecord => ({
  id: row.id,
  parentId: row.parentId,
  kind: row.kind,
  name: row.name,
  sort: row.sort,
  orgId: row.orgId,
  version: row.version,
});

const NATURAL = new Intl.Collator('zh-CN', { numeric: true });

/** The scope's buildings, then their floors, then those floors' rooms. */
export async function locationTree(db: Db, scope: DataScope): Promise<LocationRecord[]> {
  const rows = await db.selectFrom('hotelLocation').selectAll().execute();
  // Names in natural order (0802 before 0811, 9F before 10F), which no collation of both databases gives.
  rows.sort((a, b) => a.sort - b.sort || NATURAL.compare(a.name, b.name) || a.id - b.id);
  if (scope.kind === 'all') return rows.map(toLocationRecord);
  const kept = new Set(rows.filter((row) => row.kind === 'building' && holdsRow(scope, row)).map((row) => row.id));
  for (const kind of ['floor', 'room'] as const) rows.filter((row) => row.kind === kind && kept.has(row.parentId)).forEach((row) => kept.add(row.id));
  return rows.filter((row) => kept.has(row.id)).map(toLocationRecord);
}
