/**
 * Notification rules by organisation unit, and editable message templates (issue 28):
 * - notify_rule.org_id: the unit (with its subtree) whose devices' alarms the rule takes; null for
 *   every unit. Existing rules keep null, so they match as before.
 * - notify_template: a row per channel type and message kind that someone edited; a pair without a
 *   row uses the built-in Chinese default, so defaults can change in code without a migration.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

export function notifyTemplatesAndRuleUnits(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('notify_rule').addColumn('org_id', 'integer').execute();

      const table = db.schema.createTable('notify_template');
      await (dialect === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
        .addColumn('channel_type', 'varchar(16)', (c) => c.notNull())
        // raise | clear | escalation
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('notify_template_type_kind', ['channel_type', 'kind'])
        .execute();
    },
  };
}
