/** How a user appears in the audit trail: the contract's user record, named by user name. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { UserRecord } from '../../../../contract/sys/user';
import { findUser, type UserRecord as User } from '../../../services/users';
import { SYSTEM_SCOPE } from '../../../lib/data-scope';

export const userAuditTarget: AuditTarget<User> = {
  schema: UserRecord,
  // The call was let through (or refused) already: the trail records the record as it is.
  load: (db, id) => findUser(db, SYSTEM_SCOPE, id),
  label: (user) => user.userName,
  unit: (_db, user) => user.orgId,
};
