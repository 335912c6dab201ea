/** How a signed-in session appears in the audit trail (force logout): named `userName@ip`. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { OnlineRecord } from '../../../../contract/monitor/online';

export const sessionAuditTarget: AuditTarget<{ userName: string; ip: string; orgId: number | null }> = {
  schema: OnlineRecord,
  load: (db, id) =>
    db
      .selectFrom('sysSession as s')
      .innerJoin('sysUser as u', 'u.id', 's.userId')
      .select(['s.id as sessionId', 's.userId', 'u.userName', 's.ip', 's.createdAt as signedInAt', 's.lastSeenAt', 'u.orgId'])
      .where('s.id', '=', id)
      .executeTakeFirst(),
  label: (session) => `${session.userName}@${session.ip}`,
  unit: (_db, session) => session.orgId,
};
