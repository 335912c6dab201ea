import { createTestDatabase, describeOnEachDatabase, dialects } from './support/harness';
import { expectOk } from './support/sys-fixtures';
import { migrateUpTo, openTestKysely } from './support/migrations';
import type { Database } from '../../src/server/db/schema';
import { floorOfRoomNo, roomRange } from '../../src/server/routes/hotel/location/room-numbers';

describe('room numbers', () => {
  it('reads the floor from the digits before the last two', () => {
    expect(floorOfRoomNo('0808')).toBe('8F');
    expect(floorOfRoomNo('1203')).toBe('12F');
    expect(floorOfRoomNo('305')).toBe('3F');
    expect(floorOfRoomNo('A12')).toBeNull();
    expect(floorOfRoomNo('0012')).toBeNull();
  });
  it('expands a range keeping the width, and explains a bad one', () => {
    expect(roomRange('0801', '0803')).toEqual(['0801', '0802', '0803']);
    expect(roomRange('0803', '0801')).toBe('结束房间号不能小于开始房间号');
    expect(roomRange('801', '0830')).toBe('起止房间号位数必须相同');
    expect(roomRange('0001', '9999')).toBe('一次最多创建 200 个房间');
  });
});

describeOnEachDatabase('hotel/location', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });
  const create = async (body: Record<string, unknown>) => expectOk(await ctx().call('/hotel/location/creation', body, admin));

  it('builds building -> floor -> rooms, bulk-creates a range once and answers the tree', async () => {
    const building = await create({ parentId: 0, kind: 'building', name: '主楼', sort: 1 });
    const floor = await create({ parentId: building.id, kind: 'floor', name: '8F', sort: 8 });
    const first = await ctx().call('/hotel/location/rooms/creation', { floorId: floor.id, from: '0801', to: '0830' }, admin);
    expect(first).toMatchObject({ code: 200, msg: '已创建 30 个房间', data: { created: 30, skipped: 0 } });
    const again = await ctx().call('/hotel/location/rooms/creation', { floorId: floor.id, from: '0825', to: '0832' }, admin);
    expect(again).toMatchObject({ code: 200, data: { created: 2, skipped: 6 } });

    const tree = expectOk(await ctx().call('GET /hotel/location/tree', null, admin));
    const rooms = tree.filter((node) => node.parentId === floor.id);
    expect(rooms).toHaveLength(32);
    expect(rooms.every((room) => room.kind === 'room')).toBe(true);
    expect(rooms.map((room) => room.name)).toContain('0808');
  });

  it('lists rooms in natural order whatever batches made them, and floors by number', async () => {
    const building = await create({ parentId: 0, kind: 'building', name: '北楼', sort: 3 });
    const ninth = await create({ parentId: building.id, kind: 'floor', name: '9F', sort: 0 });
    const tenth = await create({ parentId: building.id, kind: 'floor', name: '10F', sort: 0 });
    expectOk(await ctx().call('/hotel/location/rooms/creation', { floorId: ninth.id, from: '0801', to: '0810' }, admin));
    expectOk(await ctx().call('/hotel/location/rooms/creation', { floorId: ninth.id, from: '0809', to: '0812' }, admin));

    const tree = expectOk(await ctx().call('GET /hotel/location/tree', null, admin));
    const names = (parentId: number) => tree.filter((node) => node.parentId === parentId).map((node) => node.name);
    expect(names(ninth.id)).toEqual(Array.from({ length: 12 }, (_, index) => `08${String(index + 1).padStart(2, '0')}`));
    expect(names(building.id)).toEqual(['9F', '10F']);
    expect(tenth.name).toBe('10F');
  });

  it('refuses a location under the wrong kind of parent, a duplicate name and a stale edit, changing nothing', async () => {
    const building = await create({ parentId: 0, kind: 'building', name: '副楼', sort: 2 });
    const before = (await ctx().database.db.selectFrom('hotelLocation').select('id').execute()).length;
    expect(await ctx().call('/hotel/location/creation', { parentId: building.id, kind: 'room', name: '0101', sort: 0 }, admin)).toMatchObject({
      code: 400,
      msg: '房间只能建在楼层下',
    });
    expect(await ctx().call('/hotel/location/creation', { parentId: building.id, kind: 'building', name: 'X', sort: 0 }, admin)).toMatchObject({
      code: 400,
      msg: '楼栋不能有上级位置',
    });
    expect(await ctx().call('/hotel/location/creation', { parentId: 0, kind: 'building', name: '副楼', sort: 0 }, admin)).toMatchObject({
      code: 409,
      msg: '同一上级下名称已存在',
    });
    expect(await ctx().call('/hotel/location/rooms/creation', { floorId: building.id, from: '0101', to: '0102' }, admin)).toMatchObject({
      code: 400,
      msg: '房间只能建在楼层下',
    });
    expect((await ctx().database.db.selectFrom('hotelLocation').select('id').execute()).length).toBe(before);

    const renamed = expectOk(await ctx().call('/hotel/location/edit', { id: building.id, name: '副楼 B', sort: 3, version: 0 }, admin));
    expect(renamed).toMatchObject({ name: '副楼 B', sort: 3, version: 1 });
    expect(await ctx().call('/hotel/location/edit', { id: building.id, name: '副楼 C', sort: 3, version: 0 }, admin)).toMatchObject({ code: 409 });
  });

  it('removes an empty location, refuses one with child locations or devices, and records each removal', async () => {
    const building = await create({ parentId: 0, kind: 'building', name: '西楼', sort: 4 });
    const floor = await create({ parentId: building.id, kind: 'floor', name: '3F', sort: 3 });
    const occupied = await create({ parentId: floor.id, kind: 'room', name: '0301', sort: 0 });
    const mistyped = await create({ parentId: floor.id, kind: 'room', name: '03001', sort: 1 });
    expectOk(await ctx().call('/hotel/device/creation', { name: '门锁', sn: 'RM-0301', type: 'lock', state: 1, remark: '', locationId: occupied.id }, admin));
    const exists = async (id: number) => (await ctx().database.db.selectFrom('hotelLocation').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

    expect(await ctx().call('/hotel/location/removal', { id: floor.id }, admin)).toMatchObject({ code: 409, msg: '楼层「3F」下还有下级位置，请先删除下级位置' });
    expect(await ctx().call('/hotel/location/removal', { id: occupied.id }, admin)).toMatchObject({ code: 409, msg: '房间「0301」下还有 1 台设备，请先把设备移到其他位置' });
    expect(await ctx().call('/hotel/location/removal', { id: 999_999 }, admin)).toMatchObject({ code: 404, msg: '位置不存在' });
    expect(await exists(floor.id)).toBe(true);
    expect(await exists(occupied.id)).toBe(true);

    expect(await ctx().call('/hotel/location/removal', { id: mistyped.id }, admin)).toMatchObject({ code: 200, msg: '删除成功' });
    expect(await exists(mistyped.id)).toBe(false);
    const record = await ctx()
      .database.db.selectFrom('sysOperationLog')
      .selectAll()
      .where('path', '=', '/hotel/location/removal')
      .where('outcome', '=', 'success')
      .executeTakeFirstOrThrow();
    expect(record).toMatchObject({ module: '位置管理', action: '删除位置', targetType: 'location', targetId: String(mistyped.id), targetLabel: '03001' });
  });
});

describeOnEachDatabase('hotel/device in a location', (ctx) => {
  it('keeps a device in a room, shows its path and filters the list by a subtree', async () => {
    const admin = await ctx().login();
    const create = async (body: Record<string, unknown>) => expectOk(await ctx().call('/hotel/location/creation', body, admin));
    const building = await create({ parentId: 0, kind: 'building', name: '主楼', sort: 1 });
    const floor = await create({ parentId: building.id, kind: 'floor', name: '8F', sort: 8 });
    const room = await create({ parentId: floor.id, kind: 'room', name: '0808', sort: 0 });
    const device = (sn: string, locationId: number | null) => ({ name: sn, sn, type: 'lock', state: 1, remark: '', locationId });
    const inRoom = expectOk(await ctx().call('/hotel/device/creation', device('LOC-0001', room.id), admin)).device;
    expect(inRoom).toMatchObject({ locationId: room.id, locationPath: '主楼 / 8F / 0808' });
    expectOk(await ctx().call('/hotel/device/creation', device('LOC-0002', null), admin));
    expect(await ctx().call('/hotel/device/creation', device('LOC-0003', 999_999), admin)).toMatchObject({ code: 404, msg: '位置不存在' });

    // Shared equipment on the floor itself, and a device in another building.
    expectOk(await ctx().call('/hotel/device/creation', device('LOC-0004', floor.id), admin));
    const annex = await create({ parentId: 0, kind: 'building', name: '副楼', sort: 2 });
    expectOk(await ctx().call('/hotel/device/creation', device('LOC-0005', (await create({ parentId: annex.id, kind: 'floor', name: '1F', sort: 1 })).id), admin));

    const listed = async (locationId: number) =>
      expectOk(await ctx().call('/hotel/device/inquire', { size: 10, current: 1, params: { locationId } }, admin)).records.map((r) => [r.sn, r.locationPath]);
    expect(await listed(building.id)).toEqual([
      ['LOC-0001', '主楼 / 8F / 0808'],
      ['LOC-0004', '主楼 / 8F'],
    ]);
    expect(await listed(floor.id)).toEqual([
      ['LOC-0001', '主楼 / 8F / 0808'],
      ['LOC-0004', '主楼 / 8F'],
    ]);
    expect(await listed(room.id)).toEqual([['LOC-0001', '主楼 / 8F / 0808']]);
    expect(await listed(annex.id)).toEqual([['LOC-0005', '副楼 / 1F']]);
  });
});

describe('migration 008 turns free-text room numbers into rooms', () => {
  for (const dialect of dialects()) {
    it(`[${dialect}] puts each device in a room on the floor its number implies`, async () => {
      const target = await createTestDatabase(dialect);
      const db = await openTestKysely<Database>(target);
      try {
        expect(await migrateUpTo(db, dialect, '008')).toBeUndefined();
        const now = Date.now();
        const device = (sn: string, roomNo: string) => ({ name: sn, sn, type: 'lock', roomNo, state: 1, online: 0, remark: '', keyHash: 'x', createdAt: now, updatedAt: now });
        await db
          .insertInto('hotelDevice')
          .values([device('D1', '0808'), device('D2', '0808'), device('D3', '1203'), device('D4', 'Lobby'), device('D5', '')])
          .execute();

        expect(await migrateUpTo(db, dialect)).toBeUndefined();

        const locations = await db.selectFrom('hotelLocation').selectAll().execute();
        const named = (name: string) => locations.find((l) => l.name === name)!;
        expect(named('主楼')).toMatchObject({ kind: 'building', parentId: 0 });
        expect(named('8F')).toMatchObject({ kind: 'floor', parentId: named('主楼').id });
        expect(named('0808')).toMatchObject({ kind: 'room', parentId: named('8F').id });
        expect(named('1203')).toMatchObject({ kind: 'room', parentId: named('12F').id });
        expect(named('Lobby')).toMatchObject({ kind: 'room', parentId: named('其他').id });
        const devices = await db.selectFrom('hotelDevice').select(['sn', 'locationId']).orderBy('sn').execute();
        expect(devices).toEqual([
          { sn: 'D1', locationId: named('0808').id },
          { sn: 'D2', locationId: named('0808').id },
          { sn: 'D3', locationId: named('1203').id },
          { sn: 'D4', locationId: named('Lobby').id },
          { sn: 'D5', locationId: null },
        ]);
      } finally {
        await db.destroy();
        await target.drop();
      }
    }, 30_000);
  }
});
