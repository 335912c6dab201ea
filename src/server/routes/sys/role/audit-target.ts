/** How a role appears in the audit trail: the contract's role record, named by its name. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { RoleRecord } from '../../../../contract/sys/role';
import { findRoleRecord, type RoleRecord as Role } from './repository';
import { SYSTEM_SCOPE } from '../../../lib/data-scope';

export const roleAuditTarget: AuditTarget<Role> = {
  schema: RoleRecord,
  // The trail records the role as it is, its user count over every unit.
  load: (db, id) => findRoleRecord(db, SYSTEM_SCOPE, id),
  label: (role) => role.name,
};
