/**
 * Live devices per unit (migration 033): whatever writes hotel_device (the screens, an import, a
 * removal, a unit's removal, a hand-written statement of many rows), hotel_device_unit_count holds
 * exactly count(*) of the live devices of each unit, and a whole list's total, which is read from
 * it, is the count of the caller's devices.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { describeOnEachDatabase } from './support/harness';
import { USER_PASSWORD, createRole, deviceRow, expectOk, menuGrants } from './support/sys-fixtures';
import { upload, xlsxFile } from './support/files';

const DEVICE_HEADER = ['设备名称*', '序列号*', '设备类型*', '位置', '状态', '备注'];
const asNumbers = (rows: Array<{ orgId: unknown; live: unknown }>) => rows.map((row) => [Number(row.orgId), Number(row.live)]);

describeOnEachDatabase('live devices per unit', (ctx) => {
  let admin: string;
  let root: number;
  const db = () => ctx().database.db;

  /** The stored counts (units with none left out) against count(*) of the live devices by unit. */
  async function expectCountsExact(): Promise<void> {
    const stored = await db().selectFrom('hotelDeviceUnitCount').select(['orgId', 'live']).where('live', '<>', 0).orderBy('orgId').execute();
    const unit = sql<number>`coalesce(org_id, 0)`;
    const counted = await db()
      .selectFrom('hotelDevice')
      .select([unit.as('orgId'), (eb) => eb.fn.countAll().as('live')])
      .where('deletedAt', 'is', null)
      .groupBy(unit)
      .orderBy(unit)
      .execute();
    expect(asNumbers(stored)).toEqual(asNumbers(counted));
  }

  const liveIn = async (orgId: number) =>
    Number(
      (
        await db()
          .selectFrom('hotelDevice')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('orgId', '=', orgId)
          .where('deletedAt', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const listTotal = async (token: string) => expectOk(await ctx().call('/hotel/device/inquire', { size: 5, current: 1 }, token)).total;

  beforeAll(async () => {
    admin = await ctx().login();
    root = expectOk(await ctx().call('GET /sys/org/tree', null, admin)).find((u) => u.pid === null)!.id;
  });

  it('stays exact through creation, moves, location changes, bulk state, removal, import and a unit removal', async () => {
    const app = ctx();
    const unit = async (name: string, code: string) =>
      expectOk(await app.call('/sys/org/creation', { pid: root, name, kind: 'hotel', code, state: 1, sort: 0, remark: '' }, admin)).id;
    const a = await unit('计数甲店', 'CNT-A');
    const b = await unit('计数乙店', 'CNT-B');
    const floorOf = async (orgId: number, name: string) => {
      const building = expectOk(await app.call('/hotel/location/creation', { parentId: 0, kind: 'building', name, sort: 0, orgId }, admin));
      return expectOk(await app.call('/hotel/location/creation', { parentId: building.id, kind: 'floor', name: '1F', sort: 0 }, admin)).id;
    };
    const floorA = await floorOf(a, '计数甲楼');
    const floorB = await floorOf(b, '计数乙楼');
    const role = await createRole(app, admin, '计数-本店', await menuGrants(app, '/hotel/device'));
    expectOk(await app.call('/sys/role/edit', { id: role.id, name: role.name, remark: '', state: 1, dataScope: 'org', version: role.version }, admin));
    expectOk(await app.call('/sys/user/creation', { userName: 'count.a', nickName: '甲店', password: USER_PASSWORD, state: 1, roleId: role.id, orgId: a }, admin));
    const hotelA = await app.login('count.a', USER_PASSWORD);
    const allLive = async () =>
      Number(
        (
          await db()
            .selectFrom('hotelDevice')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('deletedAt', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const check = async () => {
      await expectCountsExact();
      expect(await listTotal(hotelA)).toBe(await liveIn(a));
      expect(await listTotal(admin)).toBe(await allLive());
    };

    const create = async (sn: string, orgId: number | null, locationId: number | null = null) =>
      expectOk(await app.call('/hotel/device/creation', { name: sn, sn, type: 'lock', locationId, orgId, state: 1, remark: '' }, admin)).device;
    const first = await create('CNT-1', a);
    const second = await create('CNT-2', null, floorA);
    const third = await create('CNT-3', b);
    await check();
    expect(await liveIn(a)).toBe(2);

    // Moved to another hotel directly, then by a location of another hotel.
    const edit = (device: typeof first, changes: { orgId?: number; locationId?: number | null }) =>
      app.call(
        '/hotel/device/edit',
        { id: device.id, name: device.name, sn: device.sn, type: device.type, locationId: device.locationId, state: device.state, remark: '', version: device.version, ...changes },
        admin,
      );
    expectOk(await edit(first, { orgId: b }));
    await check();
    expectOk(await edit(second, { locationId: floorB }));
    await check();
    expect(await liveIn(a)).toBe(0);

    expectOk(await app.call('/hotel/device/batch/state', { ids: [first.id, second.id], state: 0 }, admin));
    await check();
    expectOk(await app.call('/hotel/device/removal', { id: third.id }, admin));
    await check();

    // Two new devices in hotel A, and CNT-1 brought back to A by its new location.
    const file = await xlsxFile([
      DEVICE_HEADER,
      ['导入一', 'CNT-4', 'lock', '计数甲楼/1F', '', ''],
      ['导入二', 'CNT-5', 'lock', '计数甲楼/1F', '', ''],
      ['CNT-1', 'CNT-1', 'lock', '计数甲楼/1F', '', ''],
    ]);
    expect((await upload(app, '/hotel/device/import', { mode: 'apply', updateExisting: '1' }, file, admin)).code).toBe(200);
    await check();
    expect(await liveIn(a)).toBe(3);

    // A unit goes once it holds only deleted devices, which then keep no unit.
    const c = await unit('计数丙店', 'CNT-C');
    const doomed = await create('CNT-6', c);
    await check();
    expectOk(await app.call('/hotel/device/removal', { id: doomed.id }, admin));
    expectOk(await app.call('/sys/org/removal', { id: c }, admin));
    await check();
  });

  it('stays exact under random statements of many rows: inserts, soft deletes, restores, moves, hard deletes', async () => {
    const units = [null, ...(await db().selectFrom('sysOrg').select('id').orderBy('id').limit(3).execute()).map((row) => row.id)];
    const unitArb = fc.nat(units.length - 1).map((i) => units[i]);
    const op = fc.oneof(
      fc.record({ kind: fc.constant('insert' as const), rows: fc.array(fc.record({ org: unitArb, deleted: fc.boolean() }), { minLength: 1, maxLength: 4 }) }),
      fc.record({ kind: fc.constantFrom('softDelete' as const, 'restore' as const, 'hardDelete' as const), pick: fc.nat(), many: fc.boolean() }),
      fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), many: fc.boolean(), org: unitArb }),
    );
    let serial = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        for (const step of ops) {
          const ours = (await db().selectFrom('hotelDevice').select('id').where('sn', 'like', 'CNTP-%').orderBy('id').execute()).map((row) => row.id);
          if (step.kind === 'insert') {
            await db()
              .insertInto('hotelDevice')
              .values(step.rows.map((row) => deviceRow(`CNTP-${++serial}`, { orgId: row.org, deletedAt: row.deleted ? Date.now() : null })))
              .execute();
            continue;
          }
          if (ours.length === 0) continue;
          // One device, or every other one from it on (one statement of many rows).
          const picked = step.many ? ours.filter((_, i) => i >= step.pick % ours.length && i % 2 === step.pick % 2) : [ours[step.pick % ours.length]];
          if (picked.length === 0) continue;
          if (step.kind === 'hardDelete') {
            await db().deleteFrom('hotelDevice').where('id', 'in', picked).execute();
          } else {
            const changes = step.kind === 'move' ? { orgId: step.org } : { deletedAt: step.kind === 'softDelete' ? Date.now() : null };
            await db().updateTable('hotelDevice').set(changes).where('id', 'in', picked).execute();
          }
        }
        await expectCountsExact();
      }),
      { numRuns: 25 },
    );
  });
});
