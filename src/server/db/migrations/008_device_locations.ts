/**
 * Locations as data: building -> floor -> room in one table (parent_id), and a device's place
 * (location_id: a room, or a floor/building for shared equipment). Devices' free-text room numbers
 * become rooms: under one building 主楼, on the floor their number implies (0808 -> 8F; a number that
 * names no floor goes to 其他).
 */
import type { Generated, Kysely } from 'kysely';
import type { Dialect } from '../dialect';

export const MIGRATED_BUILDING = '主楼';

/** The tables as this migration knows them (snake case: the migrator's handle may lack the camel-case plugin). */
interface TablesAt008 {
  hotel_device: { room_no: string; location_id: number | null };
  hotel_location: { id: Generated<number>; parent_id: number; kind: string; name: string; sort: number; created_at: number; updated_at: number; version: number };
}

export function deviceLocations(dialect: Dialect) {
  return {
    async up(migrator: Kysely<unknown>): Promise<void> {
      const db = migrator as Kysely<TablesAt008>;
      const table = db.schema.createTable('hotel_location');
      await (dialect === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
        .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('name', 'varchar(32)', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // One name per parent (a building's names are unique among buildings: parent_id 0 for the root).
      await db.schema.createIndex('hotel_location_parent_name').on('hotel_location').columns(['parent_id', 'name']).unique().execute();
      await db.schema.alterTable('hotel_device').addColumn('location_id', 'integer').execute();
      await db.schema.createIndex('hotel_device_location').on('hotel_device').column('location_id').execute();

      // Aliased to a name the camel-case plugin (when the app migrates) leaves as it is.
      const roomNos = (await db.selectFrom('hotel_device').select('room_no as room').distinct().where('room_no', '<>', '').execute()).map((r) => String(r.room));
      if (roomNos.length === 0) return;
      const now = Date.now();
      const insert = async (parentId: number, kind: string, name: string) =>
        Number(
          (
            await db
              .insertInto('hotel_location')
              .values({ parent_id: parentId, kind, name, sort: 0, created_at: now, updated_at: now, version: 0 })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        );
      const building = await insert(0, 'building', MIGRATED_BUILDING);
      const floors = new Map<string, number>();
      for (const roomNo of roomNos) {
        const floorName = floorOfRoomNo(roomNo) ?? '其他';
        let floor = floors.get(floorName);
        if (floor === undefined) floors.set(floorName, (floor = await insert(building, 'floor', floorName)));
        const room = await insert(floor, 'room', roomNo);
        await db.updateTable('hotel_device').set({ location_id: room }).where('room_no', '=', roomNo).execute();
      }
    },
  };
}

/**
 * The floor a room number implies (0808 -> 8F), as this migration shipped: a copy, not an import of
 * routes/hotel/location/room-numbers.ts, so a later change there never changes what it did.
 */
function floorOfRoomNo(roomNo: string): string | null {
  const match = /^(\d{1,2})\d{2}$/.exec(roomNo);
  if (!match) return null;
  const floor = Number(match[1]);
  return floor === 0 ? null : `${floor}F`;
}
