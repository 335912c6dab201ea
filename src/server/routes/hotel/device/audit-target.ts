/** How a device appears in the audit trail: the contract's device fields (never its key hash), named `name（sn）`. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { DeviceRecord } from '../../../../contract/hotel/device';
import { devicesJoinedToPresence } from './presence';
import { SYSTEM_SCOPE } from '../../../lib/data-scope';

export const deviceAuditTarget: AuditTarget<{ name: string; sn: string; orgId: number | null }> = {
  schema: DeviceRecord,
  load: (db, id) =>
    // The call was let through (or refused) already: the trail records the device as it is.
    devicesJoinedToPresence(db, SYSTEM_SCOPE)
      .select(['hotelDevice.id', 'name', 'sn', 'type', 'locationId', 'state', 'online', 'remark', 'version', 'orgId'])
      .where('hotelDevice.id', '=', id)
      .executeTakeFirst(),
  label: (device) => `${device.name}（${device.sn}）`,
  unit: (_db, device) => device.orgId,
};
