/** How a schedule appears in the audit trail: its fields with the parameters as JSON, named by its name. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { ScheduleRecord } from '../../../../contract/sys/schedule';

/** Stored parameters as the value they encode (the text itself should it not be JSON). */
function orParsed(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

export const scheduleAuditTarget: AuditTarget<{ name: string }> = {
  schema: ScheduleRecord,
  load: async (db, id) => {
    const row = await db.selectFrom('sysSchedule').select(['id', 'name', 'cron', 'task', 'params', 'state', 'remark', 'version']).where('id', '=', id).executeTakeFirst();
    return row && { ...row, params: orParsed(row.params) };
  },
  label: (schedule) => schedule.name,
};
