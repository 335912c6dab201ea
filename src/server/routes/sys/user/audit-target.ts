/** How a user appears in the audit trail: the contract's user record, named by user name. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { UserRecord } from '../../../../contract/sys/user';
import { findUser, type UserRecord as User } from '../../../services/users';

export const userAuditTarget: AuditTarget<User> = {
  schema: UserRecord,
  load: findUser,
  label: (user) => user.userName,
};
