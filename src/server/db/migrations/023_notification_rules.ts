/**
 * Notification rules (issue 28): which alarms go to which channels (notify_rule: alarm types, a
 * lowest severity, a location subtree, cause only or symptoms too, quiet hours, escalation steps),
 * maintenance windows that silence a location subtree for a period (notify_maintenance: no
 * messages, alarms still recorded), and the escalation steps waiting for their time
 * (notify_escalation, a row per alarm and step, taken by the delivery worker). The menus and
 * resources arrive with the built-in catalogue at start.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

export function notificationRules(dialect: Dialect) {
  const withId = (db: Kysely<unknown>, name: string, type: 'serial' | 'bigserial') => {
    const table = db.schema.createTable(name);
    return dialect === 'postgres' ? table.addColumn('id', type, (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  };
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await withId(db, 'notify_rule', 'serial')
        .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('state', 'integer', (c) => c.notNull())
        // JSON array of alarm types; [] for every type.
        .addColumn('alarm_types', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('min_severity', 'varchar(16)', (c) => c.notNull())
        // The subtree the alarm's device must be in; null for the whole hotel.
        .addColumn('location_id', 'integer')
        // 1: symptoms too; 0: only alarms that are a cause.
        .addColumn('symptoms', 'integer', (c) => c.notNull().defaultTo(1))
        // JSON array of channel ids told at once.
        .addColumn('channel_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        // Minutes of the day in Asia/Shanghai; both null for no quiet hours.
        .addColumn('quiet_start', 'integer')
        .addColumn('quiet_end', 'integer')
        // JSON array of { afterMinutes, channelIds }, in order.
        .addColumn('escalation', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await withId(db, 'notify_maintenance', 'serial')
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('location_id', 'integer')
        .addColumn('starts_at', 'bigint', (c) => c.notNull())
        .addColumn('ends_at', 'bigint', (c) => c.notNull())
        .addColumn('state', 'integer', (c) => c.notNull())
        .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('notify_maintenance_ends').on('notify_maintenance').columns(['ends_at']).execute();

      await withId(db, 'notify_escalation', 'bigserial')
        .addColumn('alarm_id', 'bigint', (c) => c.notNull())
        .addColumn('rule_id', 'integer', (c) => c.notNull())
        .addColumn('step', 'integer', (c) => c.notNull())
        .addColumn('due_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('notify_escalation_due').on('notify_escalation').columns(['due_at', 'id']).execute();
      await db.schema.createIndex('notify_escalation_alarm').on('notify_escalation').columns(['alarm_id']).execute();
    },
  };
}
