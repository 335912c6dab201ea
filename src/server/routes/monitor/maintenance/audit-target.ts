/** How a maintenance window appears in the audit trail, named by its name. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { MaintenanceRecord } from '../../../../contract/monitor/maintenance';
import { findMaintenanceRecord, type MaintenanceAnswer } from './repository';

export const maintenanceAuditTarget: AuditTarget<MaintenanceAnswer> = {
  schema: MaintenanceRecord,
  load: (db, id) => findMaintenanceRecord(db, id),
  label: (window) => window.name,
};
