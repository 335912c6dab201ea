/**
 * A hotel-scoped name search that matches few devices is planned from its matches, each device
 * looked up by id, as the unscoped one is; not by reading every device of the hotel into a join
 * (on PostgreSQL the search table's finer statistics, migration 033, keep the estimate of such a
 * term near its few matches).
 */
import { sql } from 'kysely';
import { describeOnEachDatabase } from './support/harness';
import { queryPlan } from './support/query-plan';
import { scopeOf, unitsReadNow } from '../../src/server/lib/data-scope';
import { listSearch } from '../../src/server/lib/text-search';
import { scopedDevices } from '../../src/server/routes/hotel/device/presence';
import { COUNT_CAP } from '../../src/server/lib/list-query';

const HOTELS = 25;
const PER_HOTEL = 4_000;

describeOnEachDatabase('hotel/device scoped search plan', (ctx) => {
  beforeAll(async () => {
    const { db, dialect } = ctx().database;
    const padded = (value: string, width: number) => (dialect === 'postgres' ? `lpad((${value})::text, ${width}, '0')` : `substr('000' || (${value}), -${width})`);
    // As seed:scale names them: four devices a room, "门锁 计划酒店007-801", 20 floors of 50 rooms a hotel.
    // Integer literals, not parameters: SQLite would divide a bound number as a real.
    await sql
      .raw(
        `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${HOTELS * PER_HOTEL - 1})
         insert into hotel_device (name, sn, type, location_id, org_id, state, key_hash, remark, created_at, updated_at, version)
         select case i % 4 when 0 then '门锁' when 1 then '空调' when 2 then '客控面板' else '电视' end
                || ' 计划酒店' || ${padded(`i / ${PER_HOTEL} + 1`, 3)} || '-' || ((i % ${PER_HOTEL}) / 200 + 1) || ${padded(`(i % 200) / 4 + 1`, 2)},
                'PLAN' || i, 'lock', null, 1000 + i / ${PER_HOTEL}, 1, 'x', '', 0, 0, 0 from n`,
      )
      .execute(db);
    await sql.raw(dialect === 'postgres' ? 'analyze hotel_device, hotel_device_search' : 'analyze').execute(db);
  }, 120_000);

  it('reads the matches first and each matched device by id', async () => {
    const { db, dialect } = ctx().database;
    const scope = await scopeOf(dialect, { userId: 1, orgId: 1006, roleId: 1, builtin: false, dataScope: 'org' }, unitsReadNow(db));
    const search = listSearch(dialect, 'hotel_device', 'hotelDevice.id', [{ column: 'name', ref: sql.ref('hotelDevice.name'), text: '计划酒店007-8' }]);
    const ids = search
      .apply(scopedDevices(db, scope))
      .select('hotelDevice.id')
      .limit(COUNT_CAP + 1);
    expect((await ids.execute()).length).toBe(200);
    const plan = await queryPlan(ctx(), ids.compile());
    if (dialect === 'postgres') {
      // A loop over the matches, each device found by its id (the primary key or (org_id, id)).
      expect(plan).toMatch(/Nested Loop[\s\S]*Bitmap Heap Scan on hotel_device_search matched[\s\S]*Index Cond: .*id = matched\.id/);
      expect(plan).not.toMatch(/Hash Join|Bitmap Heap Scan on hotel_device |Bitmap Index Scan on hotel_device_org/);
    } else {
      expect(plan.split('\n')[0]).toMatch(/^SCAN matched VIRTUAL TABLE/);
      expect(plan).toMatch(/SEARCH hotel_device USING INTEGER PRIMARY KEY/);
    }
  });
});
