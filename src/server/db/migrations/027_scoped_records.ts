/**
 * Data scope for the audit logs and the advanced settings (issue 26, part 2).
 *
 * - Each operation-log record keeps its actor's unit and its target's unit (actor_org_id,
 *   target_org_id), each login-log record its user's unit (org_id), so a scoped auditor sees the
 *   records whose actor or target is in scope. Records written before this migration get their
 *   actor's (login: their user's) unit as it is now, and no target unit: nobody knew it then.
 * - The hash chains cover the units from the first record written after this migration on
 *   (sys_audit_chain.units_from_id); older records keep the hashes they were written with, so the
 *   integrity check still passes over them and the units filled in here are an annotation.
 * - An advanced setting (an integration configuration) belongs to a hotel (org_id) and records who
 *   created it (created_by, for the 仅本人 scope); existing ones go to 默认酒店.
 */
import { sql, type Kysely } from 'kysely';

/** The code migration 022 gave 默认酒店. */
const DEFAULT_HOTEL_CODE = 'DEFAULT';

export const scopedRecords = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('sys_operation_log').addColumn('actor_org_id', 'integer').execute();
    await db.schema.alterTable('sys_operation_log').addColumn('target_org_id', 'integer').execute();
    await db.schema.alterTable('sys_login_log').addColumn('org_id', 'integer').execute();
    await db.schema
      .alterTable('sys_audit_chain')
      .addColumn('units_from_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();

    await sql`update sys_operation_log set actor_org_id = (select u.org_id from sys_user u where u.id = sys_operation_log.operator_id) where operator_id is not null`.execute(db);
    await sql`update sys_login_log set org_id = (select u.org_id from sys_user u where u.id = sys_login_log.user_id) where user_id is not null`.execute(db);
    await sql`update sys_audit_chain set units_from_id = head_id + 1`.execute(db);

    // A scoped log list reads newest first among a set of units (one range per unit).
    await db.schema.createIndex('sys_operation_log_actor_org').on('sys_operation_log').columns(['actor_org_id', 'at', 'id']).execute();
    await db.schema.createIndex('sys_operation_log_target_org').on('sys_operation_log').columns(['target_org_id', 'at', 'id']).execute();
    await db.schema.createIndex('sys_login_log_org').on('sys_login_log').columns(['org_id', 'at', 'id']).execute();

    await db.schema.alterTable('hotel_advanced').addColumn('org_id', 'integer').execute();
    await db.schema.alterTable('hotel_advanced').addColumn('created_by', 'integer').execute();
    await sql`update hotel_advanced set org_id = (select id from sys_org where code = ${DEFAULT_HOTEL_CODE})`.execute(db);
    await db.schema.createIndex('hotel_advanced_org').on('hotel_advanced').columns(['org_id', 'id']).execute();
  },
};
