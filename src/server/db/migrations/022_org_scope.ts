/**
 * The organisation tree and data scope (issue 26): sys_org (group -> region -> hotel -> department),
 * each user's unit (sys_user.org_id), each building's and device's hotel (hotel_location.org_id on
 * buildings only: floors and rooms follow their building), who created a device or location (for the
 * 仅本人 scope), each role's data scope (sys_role.data_scope) and the units of a custom scope
 * (sys_role_org). So that nothing changes until someone narrows a role, every database (an empty one
 * too) gets a root group unit and one hotel 默认酒店 holding every building and device; users sit at
 * the root and roles keep `all`.
 */
import type { Generated, Kysely } from 'kysely';
import type { Dialect } from '../dialect';

export const ROOT_ORG = { name: '集团总部', kind: 'group', code: 'ROOT' };
export const DEFAULT_HOTEL = { name: '默认酒店', kind: 'hotel', code: 'DEFAULT' };

/** The tables as this migration knows them (snake case: the migrator's handle may lack the camel-case plugin). */
interface TablesAt022 {
  sys_org: {
    id: Generated<number>;
    pid: number | null;
    name: string;
    kind: string;
    code: string;
    state: number;
    sort: number;
    remark: string;
    created_at: number;
    updated_at: number;
    version: number;
  };
  sys_user: { org_id: number | null };
  hotel_location: { org_id: number | null; parent_id: number };
  hotel_device: { org_id: number | null };
}

export function orgScope(dialect: Dialect) {
  return {
    async up(migrator: Kysely<unknown>): Promise<void> {
      const db = migrator as Kysely<TablesAt022>;
      const table = db.schema.createTable('sys_org');
      await (dialect === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
        .addColumn('pid', 'integer', (c) => c.references('sys_org.id'))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('state', 'integer', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // Sibling names are unique, so a path of names identifies a unit (imports name a unit by its code).
      await db.schema.createIndex('sys_org_pid_name').on('sys_org').columns(['pid', 'name']).unique().execute();

      await db.schema
        .createTable('sys_role_org')
        .addColumn('role_id', 'integer', (c) => c.notNull().references('sys_role.id').onDelete('cascade'))
        .addColumn('org_id', 'integer', (c) => c.notNull().references('sys_org.id'))
        .addPrimaryKeyConstraint('sys_role_org_pk', ['role_id', 'org_id'])
        .execute();
      await db.schema.createIndex('sys_role_org_org').on('sys_role_org').column('org_id').execute();

      await db.schema
        .alterTable('sys_role')
        .addColumn('data_scope', 'varchar(16)', (c) => c.notNull().defaultTo('all'))
        .execute();
      await db.schema.alterTable('sys_user').addColumn('org_id', 'integer').execute();
      await db.schema.alterTable('hotel_location').addColumn('org_id', 'integer').execute();
      await db.schema.alterTable('hotel_location').addColumn('created_by', 'integer').execute();
      await db.schema.alterTable('hotel_device').addColumn('org_id', 'integer').execute();
      await db.schema.alterTable('hotel_device').addColumn('created_by', 'integer').execute();

      const now = Date.now();
      const stamp = { state: 1, sort: 0, remark: '', created_at: now, updated_at: now, version: 0 };
      const root = await db
        .insertInto('sys_org')
        .values({ pid: null, ...ROOT_ORG, ...stamp })
        .returning('id as orgId')
        .executeTakeFirstOrThrow();
      const rootId = Number(root.orgId);
      const hotel = await db
        .insertInto('sys_org')
        .values({ pid: rootId, ...DEFAULT_HOTEL, ...stamp })
        .returning('id as orgId')
        .executeTakeFirstOrThrow();
      const hotelId = Number(hotel.orgId);
      await db.updateTable('sys_user').set({ org_id: rootId }).execute();
      await db.updateTable('hotel_location').set({ org_id: hotelId }).where('parent_id', '=', 0).execute();
      await db.updateTable('hotel_device').set({ org_id: hotelId }).execute();

      // A scoped list reads a unit's rows by their org, in id order (its default order).
      await db.schema.createIndex('sys_user_org').on('sys_user').columns(['org_id', 'id']).execute();
      await db.schema.createIndex('hotel_device_org').on('hotel_device').columns(['org_id', 'id']).execute();
      await db.schema.createIndex('hotel_location_org').on('hotel_location').columns(['org_id']).execute();
    },
  };
}
