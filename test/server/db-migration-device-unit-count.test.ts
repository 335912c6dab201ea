/**
 * Migration 033: an existing installation's live devices are counted per unit as they stand
 * (deleted ones left out, devices without a unit under 0), and the triggers count from there.
 */
import type { Kysely } from 'kysely';
import { dialects } from './support/harness';
import { migrateUpTo, onThrowawayDatabase } from './support/migrations';

type Untyped = Kysely<Record<string, Record<string, unknown>>>;

describe('migration 033 counts the live devices of each unit', () => {
  for (const dialect of dialects()) {
    it(`[${dialect}] fills the counts from the devices already there, then keeps them`, async () => {
      await onThrowawayDatabase<Record<string, Record<string, unknown>>>(dialect, async (db: Untyped) => {
        expect(await migrateUpTo(db, dialect, '033')).toBeUndefined();
        const now = Date.now();
        const device = (sn: string, orgId: number | null, deletedAt: number | null = null) =>
          db
            .insertInto('hotelDevice')
            .values({ name: sn, sn, type: 'lock', locationId: null, orgId, state: 1, keyHash: '', remark: '', createdAt: now, updatedAt: now, deletedAt })
            .execute();
        await device('A-1', 7);
        await device('A-2', 7);
        await device('A-GONE', 7, now);
        await device('B-1', 8);
        await device('NONE-1', null);
        await device('B-GONE', 8, now);

        expect(await migrateUpTo(db, dialect)).toBeUndefined();
        const counts = async () =>
          (await db.selectFrom('hotelDeviceUnitCount').select(['orgId', 'live']).orderBy('orgId').execute()).map((row) => [Number(row.orgId), Number(row.live)]);
        expect(await counts()).toEqual([
          [0, 1],
          [7, 2],
          [8, 1],
        ]);
        await device('B-2', 8);
        await db.updateTable('hotelDevice').set({ deletedAt: now }).where('sn', '=', 'A-1').execute();
        expect(await counts()).toEqual([
          [0, 1],
          [7, 1],
          [8, 2],
        ]);
      });
    });
  }
});
