/**
 * A device's room was entered twice, as free text (room_no) and as its location, and nothing kept
 * the two in agreement (issue 25): the location is now the only one, and room_no goes.
 *
 * A device with a room number and no location gets the room whose name, or whose path (主楼/8F/0808,
 * spaces around the slashes optional), is that number, when exactly one room of the device's hotel
 * (the hotel of the room's building) has it. A number that names no such room, names several, or
 * disagrees with a location the device already has is kept visible in the remark as
 * `原房间号：<number>` (after the remark's own text, shortened if the remark would pass 200
 * characters), so nothing a person typed is lost.
 */
import { sql, type Kysely } from 'kysely';

/** The tables as this migration knows them (snake case, aliased on read: see migration 008). */
interface TablesAt031 {
  hotel_device: { id: number; room_no: string; location_id: number | null; org_id: number | null; remark: string };
  hotel_location: { id: number; parent_id: number; kind: string; name: string; org_id: number | null };
}

const REMARK_MAX = 200;
const NOTE = '原房间号：';

/** A path as typed, compared without the spaces around its slashes. */
const normalPath = (path: string) =>
  path
    .split('/')
    .map((part) => part.trim())
    .join('/');

/** The remark with the unmapped number after its own text, the text cut so the note fits. */
function remarkKeeping(remark: string, roomNo: string): string {
  const note = `${NOTE}${roomNo}`;
  if (remark === '') return note;
  const room = REMARK_MAX - note.length - 1;
  return `${[...remark].slice(0, Math.max(0, room)).join('')}；${note}`;
}

export const deviceRoomRetired = {
  async up(migrator: Kysely<unknown>): Promise<void> {
    const db = migrator as Kysely<TablesAt031>;
    const nodes = await db.selectFrom('hotel_location').select(['id', 'parent_id as parent', 'kind', 'name', 'org_id as org']).execute();
    const byId = new Map(nodes.map((node) => [Number(node.id), node]));
    const pathOf = (id: number) => {
      const names: string[] = [];
      for (let node = byId.get(id); node; node = byId.get(Number(node.parent))) names.unshift(node.name);
      return names.join('/');
    };
    const hotelOf = (id: number): number | null => {
      for (let node = byId.get(id), steps = 0; node && steps < 3; node = byId.get(Number(node.parent)), steps += 1) {
        if (node.kind === 'building') return node.org === null ? null : Number(node.org);
      }
      return null;
    };
    // Rooms by hotel, then by what may name them: their name and their full path.
    const rooms = new Map<string, Set<number>>();
    const key = (hotel: number | null, name: string) => `${hotel ?? ''}\u0000${name}`;
    for (const node of nodes) {
      if (node.kind !== 'room') continue;
      const id = Number(node.id);
      const hotel = hotelOf(id);
      for (const name of [node.name, pathOf(id)]) {
        const named = rooms.get(key(hotel, name)) ?? new Set<number>();
        named.add(id);
        rooms.set(key(hotel, name), named);
      }
    }

    const devices = await db.selectFrom('hotel_device').select(['id', 'room_no as room', 'location_id as place', 'org_id as org', 'remark']).where('room_no', '<>', '').execute();
    for (const device of devices) {
      const roomNo = device.room.trim();
      const matches = rooms.get(key(device.org === null ? null : Number(device.org), normalPath(roomNo)));
      const only = matches?.size === 1 ? [...matches][0] : null;
      const place = device.place === null ? null : Number(device.place);
      if (place === null && only !== null) {
        await db.updateTable('hotel_device').set({ location_id: only }).where('id', '=', device.id).execute();
      } else if (roomNo !== '' && !(place !== null && matches?.has(place))) {
        await db
          .updateTable('hotel_device')
          .set({ remark: remarkKeeping(device.remark, roomNo) })
          .where('id', '=', device.id)
          .execute();
      }
    }

    // SQLite drops a column only once no index names it.
    await db.schema.dropIndex('hotel_device_room_type').execute();
    await sql`alter table hotel_device drop column room_no`.execute(db);
  },
};
