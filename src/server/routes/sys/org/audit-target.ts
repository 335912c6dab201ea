/** How an organisation unit appears in the audit trail, named by its name. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { OrgRecord } from '../../../../contract/sys/org';

export const orgAuditTarget: AuditTarget<OrgRecord> = {
  schema: OrgRecord,
  load: (db, id) =>
    db.selectFrom('sysOrg').select(['id', 'pid', 'name', 'kind', 'code', 'state', 'sort', 'remark', 'createdAt', 'updatedAt', 'version']).where('id', '=', id).executeTakeFirst(),
  label: (org) => org.name,
  unit: (_db, org) => org.id,
};
