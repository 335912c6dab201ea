/** The initial schema: every table, with its uniqueness rules, foreign keys and list indexes. */
import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../dialect';

type Table = CreateTableBuilder<string, never>;

export function initialSchema(dialect: Dialect) {
  const withId = (t: Table): Table =>
    dialect === 'postgres' ? t.addColumn('id', 'serial', (c) => c.primaryKey()) : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const audited = (t: Table): Table =>
    t
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0));

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await audited(withId(db.schema.createTable('sys_role')))
        .addColumn('name', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('state', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await audited(withId(db.schema.createTable('sys_user')))
        .addColumn('user_name', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('nick_name', 'varchar(32)', (c) => c.notNull())
        .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
        .addColumn('state', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('role_id', 'integer', (c) => c.references('sys_role.id'))
        .execute();
      await db.schema.createIndex('sys_user_role_id').on('sys_user').column('role_id').execute();

      await audited(withId(db.schema.createTable('sys_menu')))
        .addColumn('pid', 'integer', (c) => c.references('sys_menu.id'))
        .addColumn('name', 'varchar(32)', (c) => c.notNull())
        .addColumn('path', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('element', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('icon', 'varchar(40)', (c) => c.notNull().defaultTo(''))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('state', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('is_auth', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.createIndex('sys_menu_pid_sort').on('sys_menu').columns(['pid', 'sort']).execute();

      await audited(withId(db.schema.createTable('sys_resource')))
        .addColumn('menu_id', 'integer', (c) => c.notNull().references('sys_menu.id'))
        .addColumn('name', 'varchar(32)', (c) => c.notNull())
        .addColumn('type', 'varchar(40)', (c) => c.notNull())
        .addColumn('path', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addUniqueConstraint('sys_resource_menu_type', ['menu_id', 'type'])
        .execute();
      // An API path is guarded by exactly one resource; non-API resources have an empty path.
      await db.schema.createIndex('sys_resource_path').on('sys_resource').column('path').unique().where('path', '<>', '').execute();

      await withId(db.schema.createTable('sys_role_auth'))
        .addColumn('role_id', 'integer', (c) => c.notNull().references('sys_role.id').onDelete('cascade'))
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('resource', 'integer', (c) => c.notNull())
        .addUniqueConstraint('sys_role_auth_unique', ['role_id', 'type', 'resource'])
        .execute();

      await audited(withId(db.schema.createTable('sys_dict')))
        .addColumn('code', 'varchar(40)', (c) => c.notNull())
        .addColumn('label', 'varchar(32)', (c) => c.notNull())
        .addColumn('value', 'varchar(40)', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('state', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addUniqueConstraint('sys_dict_code_value', ['code', 'value'])
        .execute();

      await withId(db.schema.createTable('sys_dict_resource'))
        .addColumn('resource_id', 'integer', (c) => c.notNull().references('sys_resource.id').onDelete('cascade'))
        .addColumn('dict_id', 'integer', (c) => c.notNull().references('sys_dict.id').onDelete('cascade'))
        .addUniqueConstraint('sys_dict_resource_unique', ['resource_id', 'dict_id'])
        .execute();

      await withId(db.schema.createTable('sys_session'))
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('sys_user.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('sys_session_user').on('sys_session').column('user_id').execute();
      await db.schema.createIndex('sys_session_expires').on('sys_session').column('expires_at').execute();

      await db.schema
        .createTable('sys_login_failure')
        .addColumn('key', 'varchar(120)', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('first_at', 'bigint', (c) => c.notNull())
        .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();

      await audited(withId(db.schema.createTable('sys_schedule')))
        .addColumn('name', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('cron', 'varchar(100)', (c) => c.notNull())
        .addColumn('task', 'varchar(40)', (c) => c.notNull())
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('state', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('next_run_at', 'bigint')
        .addColumn('last_run_at', 'bigint')
        .addColumn('last_outcome', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('last_message', 'varchar(500)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('sys_schedule_due').on('sys_schedule').columns(['state', 'next_run_at']).execute();

      await withId(db.schema.createTable('sys_schedule_log'))
        .addColumn('schedule_id', 'integer', (c) => c.notNull().references('sys_schedule.id').onDelete('cascade'))
        .addColumn('trigger', 'varchar(16)', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('ended_at', 'bigint')
        .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
        .addColumn('message', 'varchar(500)', (c) => c.notNull().defaultTo(''))
        .addColumn('instance', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('sys_schedule_log_schedule').on('sys_schedule_log').columns(['schedule_id', 'started_at']).execute();
      await db.schema.createIndex('sys_schedule_log_started').on('sys_schedule_log').column('started_at').execute();

      await audited(withId(db.schema.createTable('hotel_device')))
        .addColumn('name', 'varchar(32)', (c) => c.notNull())
        .addColumn('sn', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('type', 'varchar(40)', (c) => c.notNull())
        .addColumn('room_no', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('state', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_seen_at', 'bigint')
        .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('hotel_device_online').on('hotel_device').columns(['online', 'last_seen_at']).execute();
      await db.schema.createIndex('hotel_device_room').on('hotel_device').column('room_no').execute();

      await audited(withId(db.schema.createTable('hotel_advanced')))
        .addColumn('name', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('endpoint_url', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('app_key', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('app_secret', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('state', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('initialised_at', 'bigint')
        .execute();
    },
  };
}
