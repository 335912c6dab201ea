/**
 * Migration 022: an existing installation gets a root group unit and one hotel 默认酒店 holding every
 * building and device; its users sit at the root and its roles keep scope all, so nothing changes
 * until someone narrows a role. Floors and rooms carry no unit: they follow their building.
 */
import { createTestDatabase, dialects } from './support/harness';
import { migrateUpTo, openTestKysely } from './support/migrations';
import type { Database } from '../../src/server/db/schema';

describe('migration 022 puts an existing installation into an organisation tree', () => {
  for (const dialect of dialects()) {
    it(`[${dialect}] root group, 默认酒店 with every building and device, users at the root, roles of scope all`, async () => {
      const target = await createTestDatabase(dialect);
      const db = await openTestKysely<Database>(target);
      try {
        expect(await migrateUpTo(db, dialect, '022')).toBeUndefined();
        const now = Date.now();
        const stamp = { createdAt: now, updatedAt: now };
        const role = await db
          .insertInto('sysRole')
          .values({ name: '前台', remark: '', state: 1, builtin: 0, ...stamp })
          .returning('id')
          .executeTakeFirstOrThrow();
        // Inserted as the tables stood before 022 (no org or creator columns yet).
        const untyped = db as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
        await untyped
          .insertInto('sysUser')
          .values({ userName: 'desk', nickName: '前台', passwordHash: 'x', state: 1, roleId: role.id, ...stamp })
          .execute();
        const building = await db
          .insertInto('hotelLocation')
          .values({ parentId: 0, kind: 'building', name: '主楼', sort: 0, ...stamp })
          .returning('id')
          .executeTakeFirstOrThrow();
        const floor = await db
          .insertInto('hotelLocation')
          .values({ parentId: building.id, kind: 'floor', name: '1F', sort: 0, ...stamp })
          .returning('id')
          .executeTakeFirstOrThrow();
        await untyped
          .insertInto('hotelDevice')
          .values({ name: '门锁', sn: 'M-1', type: 'lock', roomNo: '', locationId: floor.id, state: 1, keyHash: '', remark: '', ...stamp })
          .execute();

        expect(await migrateUpTo(db, dialect)).toBeUndefined();

        const units = await db.selectFrom('sysOrg').select(['id', 'pid', 'name', 'kind', 'code', 'state']).orderBy('id').execute();
        expect(units).toEqual([
          { id: expect.any(Number), pid: null, name: '集团总部', kind: 'group', code: 'ROOT', state: 1 },
          { id: expect.any(Number), pid: units[0].id, name: '默认酒店', kind: 'hotel', code: 'DEFAULT', state: 1 },
        ]);
        const [root, hotel] = units.map((unit) => unit.id);
        expect(await db.selectFrom('sysUser').select(['userName', 'orgId']).execute()).toEqual([{ userName: 'desk', orgId: root }]);
        expect(await db.selectFrom('sysRole').select(['name', 'dataScope']).execute()).toEqual([{ name: '前台', dataScope: 'all' }]);
        expect(await db.selectFrom('hotelLocation').select(['kind', 'orgId']).orderBy('id').execute()).toEqual([
          { kind: 'building', orgId: hotel },
          { kind: 'floor', orgId: null },
        ]);
        expect(await db.selectFrom('hotelDevice').select(['sn', 'orgId', 'createdBy']).execute()).toEqual([{ sn: 'M-1', orgId: hotel, createdBy: null }]);
        expect(await db.selectFrom('sysRoleOrg').selectAll().execute()).toEqual([]);
      } finally {
        await db.destroy();
        await target.drop();
      }
    });
  }
});
