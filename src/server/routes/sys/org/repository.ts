/**
 * Reads of sys_org within a data scope: the caller sees the units of their scope and nothing above
 * them, so a scoped administrator's tree starts at their own unit (its pid answered as null).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import type { OrgRecord } from '../../../../contract/sys/org';
import { hasOrg, type DataScope } from '../../../lib/data-scope';
import { notFound } from '../../../lib/errors';

type Db = Kysely<Database>;
const COLUMNS = ['id', 'pid', 'name', 'kind', 'code', 'state', 'sort', 'remark', 'createdAt', 'updatedAt', 'version'] as const;

/** The scope's units, in tree order; a unit whose parent is out of scope becomes a root. */
export async function orgTree(db: Db, scope: DataScope): Promise<OrgRecord[]> {
  const rows = await db.selectFrom('sysOrg').select(COLUMNS).orderBy('sort').orderBy('id').execute();
  return rows.filter((row) => hasOrg(scope, row.id)).map((row) => (row.pid === null || hasOrg(scope, row.pid) ? row : { ...row, pid: null }));
}

/** A unit in scope, or the same 404 as a missing one. */
export async function findOrg(db: Db, scope: DataScope, id: number): Promise<OrgRecord> {
  const row = hasOrg(scope, id) ? await db.selectFrom('sysOrg').select(COLUMNS).where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw notFound('单位');
  return row;
}
