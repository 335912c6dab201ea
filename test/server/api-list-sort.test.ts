/**
 * Sorting of every list by the server from the list's enumerated keys: an unknown key or direction
 * is a 400 and never reaches SQL; each key orders by its column with the id as tie-breaker (so a
 * descending list is exactly the ascending one reversed and pages never overlap); NULL sorts last
 * ascending. Keyset batches (exports) read the same order as one query.
 */
import { describeOnEachDatabase } from './support/harness';
import { createRole, createUser, expectOk, menuId, expectRefused } from './support/sys-fixtures';
import type { EndpointKey } from '../../src/contract';
import { USER_SORT_KEYS } from '../../src/contract/sys/user';
import { ROLE_SORT_KEYS } from '../../src/contract/sys/role';
import { MENU_SORT_KEYS } from '../../src/contract/sys/menu';
import { RESOURCE_SORT_KEYS } from '../../src/contract/sys/resource';
import { DICT_SORT_KEYS } from '../../src/contract/sys/dict';
import { SCHEDULE_LOG_SORT_KEYS, SCHEDULE_SORT_KEYS } from '../../src/contract/sys/schedule';
import { DEVICE_SORT_KEYS } from '../../src/contract/hotel/device';
import { ADVANCED_SORT_KEYS } from '../../src/contract/hotel/advanced';
import { defaultOrder, inOrder, listOrder, ordered } from '../../src/server/lib/list-query';
import { devicesJoinedToPresence } from '../../src/server/routes/hotel/device/presence';
import { SYSTEM_SCOPE } from '../../src/server/lib/data-scope';

type Row = Record<string, unknown> & { id: number };

/** The order the server promises: by value (NULL largest), then by id; descend reverses both. */
function expectedOrder(rows: Row[], field: string, order: 'ascend' | 'descend'): number[] {
  const sign = order === 'ascend' ? 1 : -1;
  const compare = (a: Row, b: Row) => {
    const x = a[field];
    const y = b[field];
    if (x !== y) {
      if (x === null) return sign;
      if (y === null) return -sign;
      return (x! < y! ? -1 : 1) * sign;
    }
    return (a.id - b.id) * sign;
  };
  return [...rows].sort(compare).map((row) => row.id);
}

describeOnEachDatabase('list sorting', (ctx) => {
  let admin: string;
  let scheduleId: number;
  let userMenu: number;

  const page = async (key: EndpointKey, body: Record<string, unknown>) =>
    expectOk(await ctx().call(key, { size: 100, current: 1, ...body }, admin)) as unknown as { records: Row[]; total: number };

  beforeAll(async () => {
    admin = await ctx().login();
    userMenu = await menuId(ctx(), '/sys/user');
    const front = await createRole(ctx(), admin, 'front');
    const back = await createRole(ctx(), admin, 'back');
    for (const [name, role] of [
      ['carol', front.id],
      ['alice', null],
      ['bob', back.id],
      ['dave', front.id],
    ] as const) {
      await createUser(ctx(), admin, name, role);
    }
    await ctx().database.db.updateTable('sysUser').set({ state: 0 }).where('userName', 'in', ['bob', 'dave']).execute();

    const device = (sn: string, name: string, type: string, state: number) => ctx().call('/hotel/device/creation', { name, sn, type, state, remark: '' }, admin);
    for (const [sn, name, type, state] of [
      ['SN-0004', 'b-lobby', 'lock', 1],
      ['SN-0002', 'a-gate', 'tv', 0],
      ['SN-0003', 'b-lobby', 'panel', 1],
      ['SN-0001', 'c-hall', 'lock', 1],
      ['SN-0005', 'a-gate', 'tv', 1],
    ] as const) {
      expectOk(await device(sn, name, type, state));
    }
    // Two equal times, one later, two never seen (NULL).
    const idsOf = (sns: string[]) => ctx().database.db.selectFrom('hotelDevice').select('id').where('sn', 'in', sns);
    await ctx()
      .database.db.updateTable('hotelDevicePresence')
      .set({ lastSeenAt: 1000, online: 1 })
      .where('id', 'in', idsOf(['SN-0004', 'SN-0003']))
      .execute();
    await ctx()
      .database.db.updateTable('hotelDevicePresence')
      .set({ lastSeenAt: 2000 })
      .where('id', 'in', idsOf(['SN-0001']))
      .execute();

    for (const [name, state] of [
      ['b-conf', 1],
      ['a-conf', 0],
      ['b-conf2', 1],
    ] as const) {
      expectOk(await ctx().call('/hotel/advanced/creation', { name, endpointUrl: '', appKey: '', appSecret: '', state, remark: '' }, admin));
    }
    const schedules = expectOk(await ctx().call('/sys/schedule/inquire', { size: 20, current: 1 }, admin));
    scheduleId = schedules.records.find((s) => s.task === 'session.purgeExpired')!.id;
    for (let run = 0; run < 3; run += 1) expectOk(await ctx().call('/sys/schedule/run', { id: scheduleId }, admin));
    // Runs that started at the same moment (startedAt ties), one still running (endedAt NULL).
    const runs = await ctx().database.db.selectFrom('sysScheduleLog').select('id').where('scheduleId', '=', scheduleId).orderBy('id').execute();
    await ctx().database.db.updateTable('sysScheduleLog').set({ startedAt: 5000 }).where('scheduleId', '=', scheduleId).execute();
    await ctx().database.db.updateTable('sysScheduleLog').set({ endedAt: null }).where('id', '=', runs[0].id).execute();
  });

  const lists: Array<{ key: EndpointKey; keys: readonly string[]; params?: () => Record<string, unknown> }> = [
    { key: '/sys/user/inquire', keys: USER_SORT_KEYS },
    { key: '/sys/role/inquire', keys: ROLE_SORT_KEYS },
    // Filtered, the menu list is flat.
    { key: '/sys/menu/inquire', keys: MENU_SORT_KEYS, params: () => ({ state: 1 }) },
    { key: '/sys/resource/menu/inquire', keys: RESOURCE_SORT_KEYS, params: () => ({ menuId: userMenu }) },
    { key: '/sys/dict/inquire', keys: DICT_SORT_KEYS },
    { key: '/sys/schedule/inquire', keys: SCHEDULE_SORT_KEYS },
    { key: '/sys/schedule/log', keys: SCHEDULE_LOG_SORT_KEYS, params: () => ({ scheduleId }) },
    { key: '/hotel/device/inquire', keys: DEVICE_SORT_KEYS },
    { key: '/hotel/advanced/inquire', keys: ADVANCED_SORT_KEYS },
  ];

  it.each(lists)('$key refuses an unknown key, a wrong direction and extra fields, with a Chinese 400', async ({ key, params }) => {
    const call = (sort: unknown) => ctx().call(key, { size: 20, current: 1, ...(params ? { params: params() } : {}), sort }, admin);
    expectRefused(await call({ field: 'passwordHash', order: 'ascend' }), '排序字段取值不正确');
    expectRefused(await call({ field: 'id desc; drop table sys_user', order: 'ascend' }), '排序字段取值不正确');
    expectRefused(await call({ field: 'constructor', order: 'ascend' }), '排序字段取值不正确');
    expect(await call({ field: 'id', order: 'asc' })).toMatchObject({ code: 400, msg: expect.stringMatching(/^排序(字段|方向)取值不正确$/) });
    expect(await call({ field: 'id', order: 'ascend', nulls: 'first' })).toMatchObject({ code: 400 });
  });

  it.each(lists)('$key orders by every sort key with the id as tie-breaker, descend reversing ascend', async ({ key, keys, params }) => {
    for (const field of keys) {
      const body = (order: 'ascend' | 'descend') => ({ ...(params ? { params: params() } : {}), sort: { field, order } });
      const ascend = (await page(key, body('ascend'))).records;
      const descend = (await page(key, body('descend'))).records;
      expect(ascend.length).toBeGreaterThan(1);
      expect({ field, ids: ascend.map((row) => row.id) }).toEqual({ field, ids: expectedOrder(ascend, field, 'ascend') });
      expect({ field, ids: descend.map((row) => row.id) }).toEqual({ field, ids: [...ascend].reverse().map((row) => row.id) });
    }
  });

  it('pages through ties without repeating or skipping a row', async () => {
    const all = (await page('/hotel/device/inquire', { sort: { field: 'name', order: 'ascend' } })).records.map((row) => row.id);
    const paged: number[] = [];
    for (let current = 1; current <= all.length; current += 1) {
      const one = expectOk(await ctx().call('/hotel/device/inquire', { size: 1, current, sort: { field: 'name', order: 'ascend' } }, admin));
      paged.push(...one.records.map((row) => row.id));
    }
    expect(paged).toEqual(all);
  });

  it('sorts devices by last report with never-seen devices last, equal times by id', async () => {
    const sns = async (order: 'ascend' | 'descend') => (await page('/hotel/device/inquire', { sort: { field: 'lastSeenAt', order } })).records.map((row) => row.sn);
    expect(await sns('ascend')).toEqual(['SN-0004', 'SN-0003', 'SN-0001', 'SN-0002', 'SN-0005']);
    expect(await sns('descend')).toEqual(['SN-0005', 'SN-0002', 'SN-0001', 'SN-0003', 'SN-0004']);
  });

  it('keeps the default order without a sort, and sorts the menu tree level by level', async () => {
    const users = (await page('/sys/user/inquire', {})).records.map((row) => row.id);
    expect(users).toEqual([...users].sort((a, b) => a - b));
    const log = (await page('/sys/schedule/log', { params: { scheduleId } })).records.map((row) => row.id);
    expect(log).toEqual([...log].sort((a, b) => b - a));

    const tree = (await page('/sys/menu/inquire', { sort: { field: 'name', order: 'descend' } })).records as Array<Row & { name: string; children?: Row[] }>;
    expect(tree.every((menu) => menu.pid === null)).toBe(true);
    expect(tree.map((menu) => menu.id)).toEqual(expectedOrder(tree, 'name', 'descend'));
    for (const menu of tree) expect(menu.children!.map((child) => child.id)).toEqual(expectedOrder(menu.children!, 'name', 'descend'));
  });

  it('reads keyset batches in the same order as one query, across NULLs and ties', async () => {
    const db = ctx().database.db;
    const keys = { name: 'name', lastSeenAt: { column: 'lastSeenAt', nullable: true } } as const;
    const devices = () => devicesJoinedToPresence(db, SYSTEM_SCOPE).select(['hotelDevice.id', 'name', 'lastSeenAt']);
    for (const field of ['name', 'lastSeenAt'] as const) {
      for (const direction of ['ascend', 'descend'] as const) {
        const order = listOrder({ field, order: direction }, keys, defaultOrder(['id', 'hotelDevice.id']), 'hotelDevice.id');
        const whole = (await ordered(devices(), order).execute()).map((row) => row.id);
        const batched: number[] = [];
        const rows = inOrder(
          order,
          (seek, limit) =>
            ordered(
              devices().$if(seek !== null, (q) => q.where(seek!)),
              order,
            )
              .limit(limit)
              .execute(),
          2,
        );
        for await (const row of rows) batched.push(row.id);
        expect({ field, direction, batched }).toEqual({ field, direction, batched: whole });
      }
    }
  });
});
