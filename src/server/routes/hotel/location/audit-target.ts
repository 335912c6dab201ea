/** How a location appears in the audit trail, named by its name. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { LocationRecord } from '../../../../contract/hotel/location';

export const locationAuditTarget: AuditTarget<LocationRecord> = {
  schema: LocationRecord,
  load: (db, id) => db.selectFrom('hotelLocation').select(['id', 'parentId', 'kind', 'name', 'sort', 'orgId', 'version']).where('id', '=', id).executeTakeFirst(),
  label: (location) => location.name,
};
