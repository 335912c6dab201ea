/**
 * "Contains" search on the device and user lists answered from trigram indexes (issue 10): the
 * same rows as the plain `lower(column) like` filter it replaced, for any text (wildcards, quotes,
 * case, CJK, terms shorter than a trigram), and the index follows inserts, edits and deletions.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { describeOnEachDatabase, type TestApp } from './support/harness';
import { deviceRow, expectOk, setPresence } from './support/sys-fixtures';
import { queryPlan } from './support/query-plan';
import { contains, defaultOrder, ordered } from '../../src/server/lib/list-query';
import { listSearch } from '../../src/server/lib/text-search';

/** Characters that matter to LIKE, FTS5 phrases and case folding, and ordinary ones. */
const ALPHABET = ['a', 'A', 'b', 'B', 'c', '1', '%', '_', '\\', '"', "'", ' ', '*', ':', '张', '三', 'É', 'é'];
const text = (min: number, max: number) => fc.array(fc.constantFrom(...ALPHABET), { minLength: min, maxLength: max }).map((chars) => chars.join(''));

const NAMES = ['Lock-ABC', 'lock-abc 2', 'a%b_c', 'a\\b', 'Ab"c', '张三的门锁', 'ÉCRAN éclair', 'abc*', 'x:abc', 'aaa', 'AAAB', 'plain'];

async function insertDevices(app: TestApp, names: string[], prefix: string): Promise<number[]> {
  const rows = await app.database.db
    .insertInto('hotelDevice')
    .values(names.map((name, i) => deviceRow(`${prefix}-${i}-${name.length}`, { name })))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** The ids the old filter (a plain LIKE over every row) finds among `ids`, with every given term. */
async function oracle(app: TestApp, terms: Partial<Record<'name' | 'sn', string>>, ids: number[]): Promise<number[]> {
  let query = app.database.db.selectFrom('hotelDevice').select('id').where('id', 'in', ids);
  for (const [column, term] of Object.entries(terms)) if (term.trim() !== '') query = query.where((eb) => contains(eb.ref(column as 'name' | 'sn'), term));
  const rows = await query.orderBy('id').execute();
  return rows.map((row) => row.id);
}

describeOnEachDatabase('substring search', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });

  const searchDevices = async (params: Record<string, unknown>, ids: number[]) => {
    const page = expectOk(await ctx().call('/hotel/device/inquire', { size: 100, current: 1, params }, admin));
    return page.records
      .map((device) => device.id)
      .filter((id) => ids.includes(id))
      .sort((a, b) => a - b);
  };

  it('finds what the plain LIKE filter found, for any text', async () => {
    const app = ctx();
    const ids = await insertDevices(app, NAMES, 'PROP');
    await fc.assert(
      fc.asyncProperty(text(1, 5), fc.constantFrom('name' as const, 'sn' as const), fc.option(text(1, 4), { nil: undefined }), async (term, column, other) => {
        // A blank filter is no filter; `other` searches the other column at the same time.
        const terms = { [column]: term, ...(other === undefined ? {} : { [column === 'name' ? 'sn' : 'name']: other }) };
        expect(await searchDevices(terms, ids)).toEqual(await oracle(app, terms, ids));
      }),
      { numRuns: 150 },
    );
  });

  it('takes LIKE wildcards and quotes literally, ignores ASCII case, and matches short terms', async () => {
    const app = ctx();
    const ids = await insertDevices(app, NAMES, 'LIT');
    const names = async (term: string) => (await searchDevices({ name: term }, ids)).map((id) => NAMES[ids.indexOf(id)]);
    expect(await names('%b_')).toEqual(['a%b_c']);
    expect(await names('a\\b')).toEqual(['a\\b']);
    expect(await names('b"c')).toEqual(['Ab"c']);
    expect(await names('LOCK-abc')).toEqual(['Lock-ABC', 'lock-abc 2']);
    expect(await names('c*')).toEqual(['abc*']);
    expect(await names('x:a')).toEqual(['x:abc']);
    expect(await names('张三')).toEqual(['张三的门锁']);
    expect(await names('门锁')).toEqual(['张三的门锁']);
    expect(await names('aa')).toEqual(['aaa', 'AAAB']);
    expect(await names('  abc  ')).toEqual(['Lock-ABC', 'lock-abc 2', 'abc*', 'x:abc']);
  });

  it('follows creation, edits and deletion', async () => {
    const app = ctx();
    const created = expectOk(await app.call('/hotel/device/creation', { name: '前台打印机', sn: 'SEARCH-0001', type: 'lock', state: 1 }, admin)).device;
    expect(await searchDevices({ name: '前台打印' }, [created.id])).toEqual([created.id]);
    const { id, sn, type, locationId, state, remark, version } = created;
    const edited = expectOk(await app.call('/hotel/device/edit', { id, name: '后台扫描仪', sn, type, locationId, state, remark, version }, admin));
    expect(await searchDevices({ name: '前台打印' }, [created.id])).toEqual([]);
    expect(await searchDevices({ name: '台扫描' }, [created.id])).toEqual([created.id]);
    expect(await searchDevices({ sn: 'ARCH-00' }, [created.id])).toEqual([created.id]);
    // A heartbeat-like update of other columns leaves the index alone and the row findable (on
    // PostgreSQL the search table's row is not even rewritten: same xmin).
    const searchRowVersion = async () =>
      app.database.dialect === 'postgres' ? (await sql<{ xmin: string }>`select xmin::text from hotel_device_search where id = ${created.id}`.execute(app.database.db)).rows : [];
    const before = await searchRowVersion();
    await setPresence(app.database.db, [edited.id], { lastSeenAt: Date.now(), online: 1 });
    expect(await searchDevices({ name: '台扫描' }, [created.id])).toEqual([created.id]);
    expect(await searchRowVersion()).toEqual(before);
    await app.database.db.deleteFrom('hotelDevice').where('id', '=', created.id).execute();
    expect(await searchDevices({ name: '台扫描' }, [created.id])).toEqual([]);
  });

  it('searches user names and nicknames the same way', async () => {
    const app = ctx();
    const now = Date.now();
    const users = ['Front_Desk', 'front%desk', 'NightAudit'].map((userName, i) => ({
      userName,
      nickName: ['前台小王', '前台%小李', '夜审'][i],
      passwordHash: 'x',
      state: 1,
      roleId: null,
      createdAt: now,
      updatedAt: now,
    }));
    const ids = (await app.database.db.insertInto('sysUser').values(users).returning('id').execute()).map((row) => row.id);
    const found = async (params: Record<string, unknown>) => {
      const page = expectOk(await app.call('/sys/user/inquire', { size: 100, current: 1, params }, admin));
      return page.records.filter((user) => ids.includes(user.id)).map((user) => user.userName);
    };
    expect(await found({ userName: 'front_' })).toEqual(['Front_Desk']);
    expect(await found({ userName: 'NT%D' })).toEqual(['front%desk']);
    expect(await found({ userName: 'desk' })).toEqual(['Front_Desk', 'front%desk']);
    expect(await found({ nickName: '前台%' })).toEqual(['front%desk']);
    expect(await found({ nickName: '夜' })).toEqual(['NightAudit']);
    await app.database.db.updateTable('sysUser').set({ nickName: '晚班' }).where('id', '=', ids[2]).execute();
    expect(await found({ nickName: '夜' })).toEqual([]);
    expect(await found({ nickName: '晚班' })).toEqual(['NightAudit']);
  });

  it('uses the trigram index rather than reading the table', async () => {
    const app = ctx();
    if (app.database.dialect === 'sqlite') {
      // The device list's ids for a search in id order, as the list builds them: the FTS table is
      // the outer loop and already in id order, so the page stops after its rows.
      const search = listSearch('sqlite', 'hotel_device', 'hotelDevice.id', [{ column: 'sn', ref: sql.ref('hotelDevice.sn'), text: 'abc' }]);
      const ids = ordered(search.apply(app.database.db.selectFrom('hotelDevice')).select('hotelDevice.id'), defaultOrder(['id', search.idColumn]))
        .limit(20)
        .compile();
      const plan = (await queryPlan(app, ids)).split('\n');
      expect(plan[0]).toMatch(/^SCAN matched VIRTUAL TABLE INDEX/);
      expect(plan.join('\n')).not.toMatch(/TEMP B-TREE|SCAN hotel_device\b/);
    } else {
      // On the search tables only: an update of the device table (every heartbeat) writes no GIN entry.
      const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes where indexname like '%_trgm'`.execute(app.database.db);
      expect(indexes.rows.map((row) => row.indexname).sort()).toEqual([
        'hotel_device_search_name_trgm',
        'hotel_device_search_sn_trgm',
        'sys_user_search_nick_name_trgm',
        'sys_user_search_user_name_trgm',
      ]);
      const search = listSearch('postgres', 'hotel_device', 'hotelDevice.id', [{ column: 'sn', ref: sql.ref('hotelDevice.sn'), text: 'abc' }]);
      const count = search.apply(app.database.db.selectFrom('hotelDevice')).select('hotelDevice.id').limit(10_001).compile();
      expect(await queryPlan(app, count, { postgresIndexScans: false })).toMatch(/Bitmap Index Scan on hotel_device_search_sn_trgm/);
    }
  });

  it('answers a page of a search by number as stepping on to it does, sorted or not, on the device and user lists', async () => {
    const app = ctx();
    await insertDevices(app, ['pg-qq 3', 'pg-qq 1', 'pg-qq 5', 'pg-qq 2', 'pg-qq 4', 'pg-qq 7', 'pg-qq 6'], 'PAGED');
    const now = Date.now();
    await app.database.db
      .insertInto('sysUser')
      .values(
        ['pgqq-c', 'pgqq-a', 'pgqq-e', 'pgqq-b', 'pgqq-d'].map((userName) => ({
          userName,
          nickName: userName,
          passwordHash: 'x',
          state: 1,
          roleId: null,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .execute();
    const lists = [
      ['/hotel/device/inquire', { name: 'pg-qq' }, 'name'],
      ['/sys/user/inquire', { userName: 'pgqq' }, 'userName'],
    ] as const;
    for (const [key, params, sortKey] of lists) {
      for (const sort of [undefined, { field: sortKey, order: 'descend' as const }]) {
        const first = expectOk(await app.call(key, { size: 3, current: 1, params, sort }, admin));
        const byNumber = expectOk(await app.call(key, { size: 3, current: 2, params, sort }, admin));
        const steppedOn = expectOk(await app.call(key, { size: 3, current: 2, after: first.records[2].id, params, sort }, admin));
        expect(byNumber).toEqual(steppedOn);
        const total = key === '/hotel/device/inquire' ? 7 : 5;
        expect(byNumber.total).toBe(total);
        expect(byNumber.totalIsLowerBound).toBe(false);
        const seen = [...first.records, ...byNumber.records].map((record) => ('name' in record ? record.name : record.userName));
        if (sort) expect(seen).toEqual([...seen].sort().reverse());
        else expect(new Set(seen).size).toBe(Math.min(6, total));
      }
    }
  });

  it('answers a search sorted by another column and in descending id order as the plain filter does', async () => {
    const app = ctx();
    const ids = await insertDevices(app, ['zz-abc', 'aa-abc', 'mm-abc', 'abc', 'no match'], 'SORT');
    const listed = async (sort: Record<string, unknown>) => {
      const page = expectOk(await app.call('/hotel/device/inquire', { size: 100, current: 1, params: { name: 'abc' }, sort }, admin));
      return page.records.filter((device) => ids.includes(device.id)).map((device) => device.name);
    };
    expect(await listed({ field: 'name', order: 'ascend' })).toEqual(['aa-abc', 'abc', 'mm-abc', 'zz-abc']);
    expect(await listed({ field: 'name', order: 'descend' })).toEqual(['zz-abc', 'mm-abc', 'abc', 'aa-abc']);
    const newestFirst = expectOk(await app.call('/hotel/device/inquire', { size: 2, current: 1, params: { name: 'abc' }, sort: { field: 'createdAt', order: 'descend' } }, admin));
    expect(newestFirst.records.map((device) => device.id)).toEqual([ids[3], ids[2]]);
  });
});
