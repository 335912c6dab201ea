/** How an alarm appears in the audit trail: named by its type and its device, as the system's own records name it. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { AlarmRecord } from '../../../../contract/hotel/alarm';
import { alarmLabel } from '../../../services/device-status/records';

export const alarmAuditTarget: AuditTarget<{ type: string; deviceName: string; deviceSn: string; orgId: number | null }> = {
  schema: AlarmRecord,
  load: (db, id) =>
    db
      .selectFrom('hotelAlarm as a')
      .innerJoin('hotelDevice as d', 'd.id', 'a.deviceId')
      .select([
        'a.id',
        'a.type',
        'a.severity',
        'a.count',
        'a.acknowledgedBy',
        'a.acknowledgedAt',
        'a.acknowledgeNote',
        'a.clearedBy',
        'a.clearedAt',
        'd.name as deviceName',
        'd.sn as deviceSn',
        'd.orgId',
      ])
      .where('a.id', '=', id)
      .executeTakeFirst(),
  label: (alarm) => alarmLabel(alarm.type, { name: alarm.deviceName, sn: alarm.deviceSn }),
  unit: (_db, alarm) => alarm.orgId,
};
