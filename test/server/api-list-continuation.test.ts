/**
 * Stepping one page on with `after` (the previous page's last row id): the lists that can grow
 * without bound read on from that row in their order (keyset) instead of skipping rows, and the
 * page is the one paging by number gives, in every order, searched or not. A row since deleted, a
 * first page and the small lists page by number as before.
 */
import { describeOnEachDatabase, type TestApp } from './support/harness';
import { createRole, createUser, expectOk, setPresence } from './support/sys-fixtures';
import { fetchCappedPage, defaultOrder, type PageRows } from '../../src/server/lib/list-query';

type Page = { records: Array<{ id: number }>; total: number; totalIsLowerBound: boolean };

/**
 * Walks `pages` pages of `size`, each asked for by number and then by stepping on from the
 * previous page's last row: the two answers must be the same page. Then, to show the list reads
 * from `after` rather than by number, page 3 asked for after the list's first row holds the rows
 * right after that row. Answers the ids seen.
 */
async function walk(
  app: TestApp,
  token: string,
  key: '/hotel/device/inquire' | '/sys/user/inquire' | '/monitor/operation/inquire' | '/monitor/login/inquire' | '/hotel/alarm/inquire',
  body: object,
  size: number,
  pages: number,
) {
  const seen: number[] = [];
  let last: number | undefined;
  for (let current = 1; current <= pages; current += 1) {
    const byNumber = expectOk(await app.call(key, { ...body, size, current }, token)) as Page;
    const steppedOn = expectOk(await app.call(key, { ...body, size, current, ...(last === undefined ? {} : { after: last }) }, token)) as Page;
    expect(steppedOn).toEqual(byNumber);
    seen.push(...steppedOn.records.map((record) => record.id));
    last = steppedOn.records.at(-1)?.id;
  }
  const afterFirst = expectOk(await app.call(key, { ...body, size, current: 3, after: seen[0] }, token)) as Page;
  expect(afterFirst.records.map((record) => record.id)).toEqual(seen.slice(1, 1 + size));
  return seen;
}

const NAMES = ['门锁 abc', 'abc 空调', 'ABC 面板', 'x abc', 'zz', 'aa abc', '电视 abc'];

describeOnEachDatabase('keyset continuation of list pages', (ctx) => {
  let admin: string;
  let deviceIds: number[];

  beforeAll(async () => {
    const app = ctx();
    admin = await app.login();
    const now = Date.now();
    const rows = Array.from({ length: 47 }, (_, i) => ({
      name: `${NAMES[i % NAMES.length]} ${i % 5}`,
      sn: `KSET-${String(i).padStart(3, '0')}`,
      type: i % 2 === 0 ? 'lock' : 'aircon',
      locationId: null,
      state: 1,
      keyHash: 'x',
      remark: '',
      createdAt: now,
      updatedAt: now,
    }));
    deviceIds = (await app.database.db.insertInto('hotelDevice').values(rows).returning('id').execute()).map((row) => row.id);
    // Some online; some never seen (NULL sorts last ascending), some equal (the id breaks the tie).
    for (const [i, id] of deviceIds.entries()) await setPresence(app.database.db, [id], { online: i % 3 === 0 ? 1 : 0, lastSeenAt: i % 4 === 0 ? null : now - (i % 6) * 1000 });
  });

  it.each([
    ['the default order', {}],
    ['名称 ascending', { sort: { field: 'name', order: 'ascend' } }],
    ['名称 descending', { sort: { field: 'name', order: 'descend' } }],
    ['最后上报 ascending (NULL last)', { sort: { field: 'lastSeenAt', order: 'ascend' } }],
    ['最后上报 descending', { sort: { field: 'lastSeenAt', order: 'descend' } }],
    ['a name search (the FTS table drives it on SQLite)', { params: { name: 'abc' } }],
    ['a name search sorted by 在线', { params: { name: 'abc' }, sort: { field: 'online', order: 'descend' } }],
    ['a type filter', { params: { type: 'lock' } }],
  ])('devices: %s', async (_label, body) => {
    const seen = await walk(ctx(), admin, '/hotel/device/inquire', body, 5, 11);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('users, by role name (from a join, NULL last) and searched', async () => {
    const app = ctx();
    const roles = [await createRole(app, admin, '续页角色甲'), await createRole(app, admin, '续页角色乙')];
    for (let i = 0; i < 13; i += 1) await createUser(app, admin, `kset_user_${i}`, i % 3 === 2 ? null : roles[i % 2].id);
    await walk(app, admin, '/sys/user/inquire', { sort: { field: 'roleName', order: 'ascend' } }, 4, 5);
    await walk(app, admin, '/sys/user/inquire', { params: { userName: 'kset_' }, sort: { field: 'roleName', order: 'descend' } }, 3, 5);
  });

  it('the operation and sign-in logs, newest first, and alarms', async () => {
    const app = ctx();
    for (let i = 0; i < 9; i += 1) await app.login();
    await walk(app, admin, '/monitor/login/inquire', {}, 4, 4);
    await walk(app, admin, '/monitor/operation/inquire', {}, 3, 5);
    const now = Date.now();
    await app.database.db
      .insertInto('hotelAlarm')
      .values(
        deviceIds
          .slice(0, 12)
          .map((deviceId, i) => ({ deviceId, type: 'offline', severity: 'major', message: '设备离线', startedAt: now - (i % 4) * 1000, lastAt: now, count: 1 + (i % 3) })),
      )
      .execute();
    await walk(app, admin, '/hotel/alarm/inquire', {}, 5, 3);
    await walk(app, admin, '/hotel/alarm/inquire', { sort: { field: 'count', order: 'ascend' } }, 5, 3);
  });

  it('pages by number when the row named by after is gone', async () => {
    const app = ctx();
    const page2 = expectOk(await app.call('/hotel/device/inquire', { size: 5, current: 2, params: { sn: 'KSET-' } }, admin));
    const gone = page2.records.at(-1)!.id;
    const page3 = expectOk(await app.call('/hotel/device/inquire', { size: 5, current: 3, params: { sn: 'KSET-' } }, admin));
    await app.database.db.deleteFrom('hotelDevice').where('id', '=', gone).execute();
    const byNumber = expectOk(await app.call('/hotel/device/inquire', { size: 5, current: 3, params: { sn: 'KSET-' } }, admin));
    expect(expectOk(await app.call('/hotel/device/inquire', { size: 5, current: 3, after: gone, params: { sn: 'KSET-' } }, admin))).toEqual(byNumber);
    // The list moved up by one: the page by number now starts where the old page 3 did, one row on.
    expect(byNumber.records[0].id).toBe(page3.records[1].id);
  });

  it('refuses an after that is no row id, with the field named', async () => {
    for (const after of [0, -3, 1.5, '12', 2_147_483_648]) {
      const answer = await ctx().call('/hotel/device/inquire', { size: 5, current: 2, after }, admin);
      expect(answer.code).toBe(400);
      expect(answer.msg).toContain('上一页末行');
    }
  });

  it('is taken by the small lists too, which page by number', async () => {
    const byNumber = expectOk(await ctx().call('/sys/role/inquire', { size: 1, current: 2 }, admin));
    expect(expectOk(await ctx().call('/sys/role/inquire', { size: 1, current: 2, after: 99_999 }, admin))).toEqual(byNumber);
  });
});

describe('fetchCappedPage with a continuation', () => {
  const order = defaultOrder(['id', 'id']);
  /** Fake reads recording how each page was asked for; 25 rows with ids 1..25. */
  function fakeList() {
    const asked: Array<{ limit: number; offset: number; seek: boolean }> = [];
    const ids = Array.from({ length: 25 }, (_, i) => ({ id: i + 1 }));
    const rows: PageRows<{ id: number }> = (limit, offset, seek) => {
      asked.push({ limit, offset, seek: seek !== null });
      return Promise.resolve(ids.slice(offset, offset + limit));
    };
    const count = (limit: number) => Promise.resolve({ n: Math.min(limit, ids.length) });
    return { asked, rows, count };
  }
  const present = { order, rowById: (id: number) => Promise.resolve(id <= 25 ? { id } : undefined) };

  it('reads after the named row, skipping nothing, below and above the cap', async () => {
    for (const cap of [100, 10]) {
      const list = fakeList();
      await fetchCappedPage({ size: 5, current: 4, after: 15 }, list.count, list.rows, present, cap);
      expect(list.asked).toEqual([{ limit: cap === 100 ? 5 : 6, offset: 0, seek: true }]);
    }
  });

  it('skips rows on a first page, without after, without a continuation, and when the row is gone', async () => {
    const cases: Array<[Parameters<typeof fetchCappedPage>[0], typeof present | undefined]> = [
      [{ size: 5, current: 1, after: 3 }, present],
      [{ size: 5, current: 4 }, present],
      [{ size: 5, current: 4, after: 15 }, undefined],
      [{ size: 5, current: 4, after: 99 }, present],
    ];
    for (const [request, continuation] of cases) {
      const list = fakeList();
      await fetchCappedPage(request, list.count, list.rows, continuation, 100);
      expect(list.asked).toEqual([{ limit: 5, offset: (request.current - 1) * 5, seek: false }]);
    }
  });

  it('answers the totals as paging by number does when the list passes the cap', async () => {
    const list = fakeList();
    const page = await fetchCappedPage({ size: 5, current: 3, after: 10 }, list.count, list.rows, { ...present, rowById: () => Promise.resolve({ id: 10 }) }, 10);
    // The fake reads from offset 0 with the seek: ids 1..6, six rows, so the list goes on.
    expect(page).toMatchObject({ total: 15, totalIsLowerBound: true });
    expect(page.records).toHaveLength(5);
  });
});
