/**
 * Migration 031: a device's free-text room number becomes its location when exactly one room of
 * its hotel has that name or path; what cannot be mapped stays in the remark as 原房间号：…; the
 * room_no column is gone.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { dialects } from './support/harness';
import { migrateUpTo, onThrowawayDatabase } from './support/migrations';

type Untyped = Kysely<Record<string, Record<string, unknown>>>;

describe('migration 031 retires the device room number in favour of its location', () => {
  for (const dialect of dialects()) {
    it(`[${dialect}] maps unique rooms, keeps the rest in the remark, drops room_no`, async () => {
      await onThrowawayDatabase<Record<string, Record<string, unknown>>>(dialect, async (db: Untyped) => {
        expect(await migrateUpTo(db, dialect, '031')).toBeUndefined();
        const now = Date.now();
        const stamp = { createdAt: now, updatedAt: now };
        const org = async (name: string, code: string) =>
          Number(
            (
              await db
                .insertInto('sysOrg')
                .values({ pid: null, name, kind: 'hotel', code, state: 1, sort: 0, remark: '', ...stamp })
                .returning('id')
                .executeTakeFirstOrThrow()
            ).id,
          );
        const place = async (parentId: number, kind: string, name: string, orgId: number | null = null) =>
          Number(
            (
              await db
                .insertInto('hotelLocation')
                .values({ parentId, kind, name, sort: 0, orgId, ...stamp })
                .returning('id')
                .executeTakeFirstOrThrow()
            ).id,
          );
        const hotelA = await org('甲酒店', 'A');
        const hotelB = await org('乙酒店', 'B');
        const mainA = await place(0, 'building', '主楼', hotelA);
        const eastA = await place(0, 'building', '东楼', hotelA);
        const mainB = await place(0, 'building', '主楼B', hotelB);
        const floorA8 = await place(mainA, 'floor', '8F');
        const floorEast8 = await place(eastA, 'floor', '8F');
        const floorB8 = await place(mainB, 'floor', '8F');
        const room0808 = await place(floorA8, 'room', '0808');
        const room0809 = await place(floorA8, 'room', '0809');
        await place(floorEast8, 'room', '0809');
        const eastRoom0810 = await place(floorEast8, 'room', '0810');
        const roomB0811 = await place(floorB8, 'room', '0811');

        const device = (sn: string, roomNo: string, orgId: number | null, locationId: number | null = null, remark = '') =>
          db
            .insertInto('hotelDevice')
            .values({ name: sn, sn, type: 'lock', roomNo, locationId, orgId, state: 1, keyHash: '', remark, ...stamp })
            .execute();
        await device('BY-NAME', '0808', hotelA);
        await device('BY-PATH', '东楼 / 8F / 0810', hotelA);
        await device('BY-PATH-TIGHT', '东楼/8F/0810', hotelA);
        await device('TWO-ROOMS', '0809', hotelA, null, '走廊尽头');
        await device('OTHER-HOTEL', '0811', hotelA);
        await device('NO-ROOM', '9999', hotelA);
        await device('AGREES', '0808', hotelA, room0808);
        await device('DISAGREES', '0812', hotelA, room0809);
        await device('EMPTY', '', hotelA, null, '机房');
        await device('HOTEL-B', '0811', hotelB);
        await device('LONG-REMARK', '7777', hotelA, null, '备'.repeat(200));

        expect(await migrateUpTo(db, dialect)).toBeUndefined();

        const rows = await db.selectFrom('hotelDevice').select(['sn', 'locationId', 'remark']).orderBy('id').execute();
        const bySn = Object.fromEntries(rows.map((row) => [row.sn, { locationId: row.locationId === null ? null : Number(row.locationId), remark: row.remark }]));
        expect(bySn).toEqual({
          'BY-NAME': { locationId: room0808, remark: '' },
          'BY-PATH': { locationId: eastRoom0810, remark: '' },
          'BY-PATH-TIGHT': { locationId: eastRoom0810, remark: '' },
          'TWO-ROOMS': { locationId: null, remark: '走廊尽头；原房间号：0809' },
          'OTHER-HOTEL': { locationId: null, remark: '原房间号：0811' },
          'NO-ROOM': { locationId: null, remark: '原房间号：9999' },
          AGREES: { locationId: room0808, remark: '' },
          DISAGREES: { locationId: room0809, remark: '原房间号：0812' },
          EMPTY: { locationId: null, remark: '机房' },
          'HOTEL-B': { locationId: roomB0811, remark: '' },
          'LONG-REMARK': { locationId: null, remark: `${'备'.repeat(190)}；原房间号：7777` },
        });
        expect(String(bySn['LONG-REMARK'].remark).length).toBe(200);

        const columns =
          dialect === 'sqlite'
            ? (await sql<{ name: string }>`select name from pragma_table_info('hotel_device')`.execute(db)).rows.map((row) => row.name)
            : (await sql<{ name: string }>`select column_name as name from information_schema.columns where table_name = 'hotel_device'`.execute(db)).rows.map((row) => row.name);
        expect(columns).toContain('location_id');
        expect(columns).not.toContain('room_no');
        // The table still takes new devices (its triggers and indexes survived the drop).
        await db
          .insertInto('hotelDevice')
          .values({ name: '新设备', sn: 'AFTER', type: 'lock', locationId: room0808, orgId: hotelA, state: 1, keyHash: '', remark: '', ...stamp })
          .execute();
        expect(await db.selectFrom('hotelDevicePresence').select('id').execute()).toHaveLength(rows.length + 1);
      });
    });
  }
});
