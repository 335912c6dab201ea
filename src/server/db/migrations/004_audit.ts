/**
 * The audit trail (issue 9): the operation log and the login log, each an append-only hash chain
 * whose head (last id and hash) and anchor (where retention last cut it) live in sys_audit_chain,
 * and the user agent of a session (for the online list and the login log).
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

export function auditSchema(dialect: Dialect) {
  // Ids come from the chain head (contiguous, so a deleted record leaves a gap), not a sequence.
  const idType = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sys_audit_chain')
        .addColumn('chain', 'varchar(16)', (c) => c.primaryKey())
        .addColumn('head_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('head_hash', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('head_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('anchor_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('anchor_hash', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db
        .insertInto('sys_audit_chain' as never)
        .values([{ chain: 'operation' }, { chain: 'login' }] as never)
        .execute();

      await db.schema
        .createTable('sys_operation_log')
        .addColumn('id', idType, (c) => c.primaryKey())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('operator_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('operator_id', 'integer')
        .addColumn('operator_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('module', 'varchar(64)', (c) => c.notNull())
        .addColumn('action', 'varchar(64)', (c) => c.notNull())
        .addColumn('path', 'varchar(100)', (c) => c.notNull())
        .addColumn('target_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('target_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('target_label', 'varchar(100)', (c) => c.notNull())
        .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
        .addColumn('code', 'integer', (c) => c.notNull())
        .addColumn('msg', 'varchar(500)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('prev_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('hash', 'varchar(64)', (c) => c.notNull())
        .execute();
      // Every filter leads an index that ends in the list's order (time desc, id desc), so a page
      // and its capped count read only the rows they answer.
      const operationIndexes: Array<[string, string[]]> = [
        ['at', ['at', 'id']],
        ['operator', ['operator_name', 'at', 'id']],
        ['module', ['module', 'at', 'id']],
        ['module_action', ['module', 'action', 'at', 'id']],
        ['action', ['action', 'at', 'id']],
        ['outcome', ['outcome', 'at', 'id']],
        ['target', ['target_type', 'target_id', 'at', 'id']],
      ];
      for (const [name, columns] of operationIndexes) {
        await db.schema.createIndex(`sys_operation_log_${name}`).on('sys_operation_log').columns(columns).execute();
      }

      await db.schema
        .createTable('sys_login_log')
        .addColumn('id', idType, (c) => c.primaryKey())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('event', 'varchar(16)', (c) => c.notNull())
        .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
        .addColumn('user_id', 'integer')
        .addColumn('user_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('browser', 'varchar(64)', (c) => c.notNull())
        .addColumn('os', 'varchar(64)', (c) => c.notNull())
        .addColumn('user_agent', 'varchar(255)', (c) => c.notNull())
        .addColumn('msg', 'varchar(200)', (c) => c.notNull())
        .addColumn('prev_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('hash', 'varchar(64)', (c) => c.notNull())
        .execute();
      const loginIndexes: Array<[string, string[]]> = [
        ['at', ['at', 'id']],
        ['user', ['user_name', 'at', 'id']],
        ['ip', ['ip', 'at', 'id']],
        ['outcome', ['outcome', 'at', 'id']],
      ];
      for (const [name, columns] of loginIndexes) {
        await db.schema.createIndex(`sys_login_log_${name}`).on('sys_login_log').columns(columns).execute();
      }

      await db.schema
        .alterTable('sys_session')
        .addColumn('user_agent', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .execute();
      // The online list reads live sessions, most recently active first.
      await db.schema.createIndex('sys_session_live').on('sys_session').columns(['revoked_at', 'last_seen_at']).execute();
    },
  };
}
