/** Versioned migrations, in code. Add a file per change; never edit one that has shipped. */
import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../dialect';
import { initialSchema } from './001_initial';
import { builtinMarkers } from './002_builtins';
import { finiteNumbers } from './003_finite_numbers';
import { auditSchema } from './004_audit';
import { deviceOnlineSample } from './006_device_online_sample';
import { deviceLocations } from './008_device_locations';
import { schedulePlannedAt } from './009_schedule_planned_at';
import { deviceAlarms } from './010_device_alarms';
import { deviceCommands } from './011_device_commands';
import { locationMenu } from './012_location_menu';
import { substringSearch } from './013_substring_search';
import { sweepOrderIndex } from './014_sweep_order_index';
import { deviceRoomTypeIndex } from './015_device_room_type_index';
import { searchTables } from './016_search_tables';
import { devicePresence } from './017_device_presence';
import { foldedSearch } from './018_folded_search';
import { auditIntegrityPaths } from './019_audit_integrity_paths';
import { notification } from './020_notification';
import { orgScope } from './022_org_scope';
import { notificationRules } from './023_notification_rules';
import { eventOutbox } from './024_event_outbox';
import { alarmAcknowledgeNote } from './025_alarm_acknowledge_note';
import { deviceDeletedAt } from './026_device_deleted_at';
import { scopedRecords } from './027_scoped_records';
import { deviceGateways } from './028_device_gateways';
import { alarmCauses } from './029_alarm_causes';
import { notifyTemplatesAndRuleUnits } from './030_notify_templates_and_rule_units';
import { deviceRoomRetired } from './031_device_room_retired';
import { locationAlarms } from './032_location_alarms';
import { deviceUnitCount } from './033_device_unit_count';
import { locationList } from './034_location_list';

export class CodeMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}

  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve({
      '001_initial': initialSchema(this.dialect),
      '002_builtins': builtinMarkers,
      '003_finite_numbers': finiteNumbers,
      '004_audit': auditSchema(this.dialect),
      '006_device_online_sample': deviceOnlineSample(this.dialect),
      '008_device_locations': deviceLocations(this.dialect),
      '009_schedule_planned_at': schedulePlannedAt,
      '010_device_alarms': deviceAlarms(this.dialect),
      '011_device_commands': deviceCommands(this.dialect),
      '012_location_menu': locationMenu,
      // Numbers only grow: a database that has run 012 refuses a new migration numbered below it.
      '013_substring_search': substringSearch(this.dialect),
      '014_sweep_order_index': sweepOrderIndex(this.dialect),
      '015_device_room_type_index': deviceRoomTypeIndex,
      '016_search_tables': searchTables(this.dialect),
      '017_device_presence': devicePresence(this.dialect),
      '018_folded_search': foldedSearch(this.dialect),
      '019_audit_integrity_paths': auditIntegrityPaths,
      '020_notification': notification(this.dialect),
      '022_org_scope': orgScope(this.dialect),
      '023_notification_rules': notificationRules(this.dialect),
      '024_event_outbox': eventOutbox(this.dialect),
      '025_alarm_acknowledge_note': alarmAcknowledgeNote,
      '026_device_deleted_at': deviceDeletedAt,
      '027_scoped_records': scopedRecords,
      '028_device_gateways': deviceGateways,
      '029_alarm_causes': alarmCauses,
      '030_notify_templates_and_rule_units': notifyTemplatesAndRuleUnits(this.dialect),
      '031_device_room_retired': deviceRoomRetired,
      '032_location_alarms': locationAlarms,
      '033_device_unit_count': deviceUnitCount(this.dialect),
      '034_location_list': locationList,
    });
  }
}
