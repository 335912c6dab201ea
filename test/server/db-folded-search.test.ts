/**
 * PostgreSQL's search tables hold their text folded to lower case (migration 018), so a search
 * tests `column like` without lower() on every row: rows written before the migration are folded by
 * it, and every insert and edit after it is folded by the triggers. What a search finds stays
 * `contains()`'s (lib-text-search.test.ts checks that for any text).
 */
import { sql, type Kysely } from 'kysely';
import { describeOnPostgres } from './support/harness';
import { migrateUpTo, onThrowawayDatabase } from './support/migrations';
import { deviceRow } from './support/sys-fixtures';
import { containsFolded } from '../../src/server/lib/list-query';

/** The schema as of any migration: plain table and column names (the app's types do not apply). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema before migration 018, not the app's
type AnySchema = any;

const searchRows = async (db: Kysely<AnySchema>, table: 'hotel_device_search' | 'sys_user_search', ids: number[]) =>
  (await sql<Record<string, unknown>>`select * from ${sql.table(table)} where id in (${sql.join(ids)}) order by id`.execute(db)).rows;

const userRow = (userName: string, nickName: string) => ({ userName, nickName, passwordHash: 'x', state: 1, roleId: null, createdAt: Date.now(), updatedAt: Date.now() });

describeOnPostgres('PostgreSQL search tables hold folded text (migration 018)', () => {
  it('folds the rows written before it, keeps the keys and cascade, and indexes the columns themselves', async () => {
    await onThrowawayDatabase<AnySchema>('postgres', async (db) => {
      expect(await migrateUpTo(db, 'postgres', '018')).toBeUndefined();
      const devices = await db
        .insertInto('hotel_device')
        .values([deviceRow('SN-ÀB-01', { name: 'Front DESK Lock' }), deviceRow('sn-plain-02', { name: '前台门锁' })])
        .returning('id')
        .execute();
      const deviceIds = devices.map((row: { id: number }) => Number(row.id));
      const users = await db
        .insertInto('sys_user')
        .values([userRow('Night_Audit', 'Élise 夜审')])
        .returning('id')
        .execute();
      const userIds = users.map((row: { id: number }) => Number(row.id));
      // Before 018 the triggers copied the text as it was.
      expect((await searchRows(db, 'hotel_device_search', deviceIds))[0]).toEqual({ id: deviceIds[0], name: 'Front DESK Lock', sn: 'SN-ÀB-01' });

      expect(await migrateUpTo(db, 'postgres')).toBeUndefined();

      expect(await searchRows(db, 'hotel_device_search', deviceIds)).toEqual([
        { id: deviceIds[0], name: 'front desk lock', sn: 'sn-àb-01' },
        { id: deviceIds[1], name: '前台门锁', sn: 'sn-plain-02' },
      ]);
      expect(await searchRows(db, 'sys_user_search', userIds)).toEqual([{ id: userIds[0], userName: 'night_audit', nickName: 'élise 夜审' }]);
      // The trigram indexes are on the folded columns, and the constraints came with the new table.
      const definitions = (
        await sql<{ indexdef: string }>`select indexdef from pg_indexes where tablename in ('hotel_device_search', 'sys_user_search') order by indexname`.execute(db)
      ).rows.map((row) => row.indexdef.replace(/^.* USING /, ''));
      expect(definitions).toEqual(['gin (name gin_trgm_ops)', 'btree (id)', 'gin (sn gin_trgm_ops)', 'gin (nick_name gin_trgm_ops)', 'btree (id)', 'gin (user_name gin_trgm_ops)']);
      await db.deleteFrom('hotel_device').where('id', '=', deviceIds[1]).execute();
      expect(await searchRows(db, 'hotel_device_search', deviceIds)).toHaveLength(1);
      await expect(sql`insert into hotel_device_search (id, name, sn) values (${2 ** 30}, 'x', 'x')`.execute(db)).rejects.toThrow(/foreign key/);
    });
  }, 30_000);

  it('folds every insert and edit after it, and a search in any case finds them through the index', async () => {
    await onThrowawayDatabase<AnySchema>('postgres', async (db) => {
      expect(await migrateUpTo(db, 'postgres')).toBeUndefined();
      const inserted = await db
        .insertInto('hotel_device')
        .values([deviceRow('AC-ÉTAGE-7', { name: 'Aircon ÉTAGE' }), deviceRow('TV-0001', { name: 'Lobby TV' })])
        .returning('id')
        .execute();
      const [aircon, tv] = inserted.map((row: { id: number }) => Number(row.id));
      await db.updateTable('hotel_device').set({ name: 'Lobby TV NEW', sn: 'TV-0001-B' }).where('id', '=', tv).execute();
      const [user] = (
        await db
          .insertInto('sys_user')
          .values([userRow('Reception_A', 'Anna')])
          .returning('id')
          .execute()
      ).map((row: { id: number }) => Number(row.id));
      await db.updateTable('sys_user').set({ nickName: 'ANNA Müller' }).where('id', '=', user).execute();

      expect(await searchRows(db, 'hotel_device_search', [aircon, tv])).toEqual([
        { id: aircon, name: 'aircon étage', sn: 'ac-étage-7' },
        { id: tv, name: 'lobby tv new', sn: 'tv-0001-b' },
      ]);
      expect(await searchRows(db, 'sys_user_search', [user])).toEqual([{ id: user, userName: 'reception_a', nickName: 'anna müller' }]);
      const found = async (column: 'name' | 'sn', text: string) =>
        (
          await db
            .selectFrom('hotel_device_search')
            .select('id')
            .where(containsFolded(sql.ref(column), text))
            .orderBy('id')
            .execute()
        ).map((row: { id: number }) => row.id);
      expect(await found('name', 'ÉTAGE')).toEqual([aircon]);
      expect(await found('sn', 'tv-0001-B')).toEqual([tv]);
      expect(await found('name', 'lobby TV')).toEqual([tv]);
    });
  }, 30_000);
});
