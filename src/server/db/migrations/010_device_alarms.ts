/**
 * Devices as a hotel runs them (issue 12): when a device came online / went offline
 * (online_since / offline_since, and every change in hotel_device_transition), an inactivity timeout
 * per device type (hotel_device_type_timeout; types without one use the sweep's own minutes), and
 * alarms (hotel_alarm). At most one active (not cleared) alarm per device and type: a partial unique
 * index, so a repeated condition updates that alarm, even with several instances sweeping at once.
 */
import { sql, type Generated, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

export function deviceAlarms(dialect: Dialect) {
  const withId = (db: Kysely<unknown>, name: string) => {
    const table = db.schema.createTable(name);
    return dialect === 'postgres' ? table.addColumn('id', 'bigserial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  };
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('hotel_device').addColumn('online_since', 'bigint').execute();
      await db.schema.alterTable('hotel_device').addColumn('offline_since', 'bigint').execute();

      await withId(db, 'hotel_device_transition')
        .addColumn('device_id', 'integer', (c) => c.notNull())
        .addColumn('online', 'integer', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('cause', 'varchar(16)', (c) => c.notNull())
        .execute();
      // One device's history, newest first.
      await db.schema.createIndex('hotel_device_transition_device_at').on('hotel_device_transition').columns(['device_id', 'at']).execute();

      await db.schema
        .createTable('hotel_device_type_timeout')
        .addColumn('type', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('minutes', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await withId(db, 'hotel_alarm')
        .addColumn('device_id', 'integer', (c) => c.notNull())
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        .addColumn('severity', 'varchar(16)', (c) => c.notNull())
        .addColumn('message', 'varchar(200)', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('last_at', 'bigint', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('acknowledged_by', 'varchar(64)')
        .addColumn('acknowledged_at', 'bigint')
        .addColumn('cleared_by', 'varchar(64)')
        .addColumn('cleared_at', 'bigint')
        .execute();
      await db.schema.createIndex('hotel_alarm_active').on('hotel_alarm').columns(['device_id', 'type']).unique().where(sql.ref('cleared_at'), 'is', null).execute();
      await db.schema.createIndex('hotel_alarm_started').on('hotel_alarm').columns(['started_at', 'id']).execute();
      await db.schema.createIndex('hotel_alarm_device').on('hotel_alarm').columns(['device_id', 'started_at']).execute();
      await grantDeviceStatus(db);
    },
  };
}

/** The tables as this migration found them (snake_case: the app's camel-case plugin leaves these names as they are). */
interface GrantTables {
  sys_menu: { id: number; path: string; element: string };
  sys_resource: { id: Generated<number>; menu_id: number; name: string; type: string; path: string; remark: string; created_at: number; updated_at: number; version: number };
  sys_role_auth: { id: Generated<number>; role_id: number; type: string; resource: number };
}

/**
 * The device drawer's status history is for whoever may list devices: in a seeded database the new
 * resource is added here (the built-in sync at start adopts it by path and adds the 告警管理 menu)
 * and granted to every role holding the device list. A fresh database gets it from the seed.
 */
async function grantDeviceStatus(db: Kysely<GrantTables>): Promise<void> {
  const menu = await db.selectFrom('sys_menu').select('id').where('path', '=', '/hotel/device').where('element', '=', 'hotel/device').executeTakeFirst();
  const list = await db.selectFrom('sys_resource').select('id').where('path', '=', '/hotel/device/inquire').executeTakeFirst();
  const existing = await db.selectFrom('sys_resource').select('id').where('path', '=', '/hotel/device/status').executeTakeFirst();
  if (!menu || !list || existing) return;
  const now = Date.now();
  const created = await db
    .insertInto('sys_resource')
    .values({ menu_id: menu.id, name: '设备状态记录', type: 'api_status', path: '/hotel/device/status', remark: '', created_at: now, updated_at: now, version: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const holders = await db.selectFrom('sys_role_auth').select('role_id as roleId').where('type', '=', 'resource').where('resource', '=', list.id).execute();
  if (holders.length === 0) return;
  await db
    .insertInto('sys_role_auth')
    .values(holders.map((holder) => ({ role_id: holder.roleId, type: 'resource', resource: created.id })))
    .execute();
}
