/**
 * Reads of sys_org within a data scope: the caller sees the units of their scope and nothing above
 * them, so a scoped administrator's tree starts at their own unit (its pid answered as null).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import type { OrgRecord } from '../../../../contract/sys/org';
import { hasOrg, type DataScope } from '../../../lib/data-scope';
import { notFound } from '../../../lib/errors';
import { ORG_COLUMNS } from '../../../services/scoped-trees';

type Db = Kysely<Database>;

/** A unit in scope, or the same 404 as a missing one. */
export async function findOrg(db: Db, scope: DataScope, id: number): Promise<OrgRecord> {
  const row = hasOrg(scope, id) ? await db.selectFrom('sysOrg').select(ORG_COLUMNS).where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw notFound('单位');
  return row;
}
