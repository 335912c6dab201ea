/** How a role appears in the audit trail: the contract's role record, named by its name. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { RoleRecord } from '../../../../contract/sys/role';
import { findRoleRecord, type RoleRecord as Role } from './repository';

export const roleAuditTarget: AuditTarget<Role> = {
  schema: RoleRecord,
  load: findRoleRecord,
  label: (role) => role.name,
};
