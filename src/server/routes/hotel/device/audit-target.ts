/** How a device appears in the audit trail: the contract's device fields (never its key hash), named `name（sn）`. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { DeviceRecord } from '../../../../contract/hotel/device';
import { devicesJoinedToPresence } from './presence';

export const deviceAuditTarget: AuditTarget<{ name: string; sn: string }> = {
  schema: DeviceRecord,
  load: (db, id) =>
    devicesJoinedToPresence(db)
      .select(['hotelDevice.id', 'name', 'sn', 'type', 'roomNo', 'state', 'online', 'remark', 'version'])
      .where('hotelDevice.id', '=', id)
      .executeTakeFirst(),
  label: (device) => `${device.name}（${device.sn}）`,
};
