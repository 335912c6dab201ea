/** How a location appears in the audit trail, named by its name. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { LocationRecord } from '../../../../contract/hotel/location';
import { hotelOfLocation } from '../../../services/location-paths';

export const locationAuditTarget: AuditTarget<LocationRecord> = {
  schema: LocationRecord,
  load: (db, id) => db.selectFrom('hotelLocation').select(['id', 'parentId', 'kind', 'name', 'sort', 'orgId', 'version']).where('id', '=', id).executeTakeFirst(),
  label: (location) => location.name,
  // Floors and rooms belong to their building's hotel (read from the parent: a removed location is gone).
  unit: (db, location) => (location.kind === 'building' ? location.orgId : hotelOfLocation(db, location.parentId)),
};
