/** msw fixtures for hotel/location: a tree held in memory, so a save shows up when the tree reloads. */
import { http } from 'msw';

import type { DataOf } from '../../../../src/contract';
import { api, ok } from '../handlers';
import type { RequestLog } from '../request-log';
import { pickerHandlers } from './pickers';

type LocationRow = DataOf<'GET /hotel/location/tree'>[number];

export const LOCATION_MENU_ID = 13;
export const mainBuilding: LocationRow = { id: 1, parentId: 0, kind: 'building', name: '主楼', sort: 1, orgId: 2, version: 0 };
export const floor8: LocationRow = { id: 2, parentId: 1, kind: 'floor', name: '8F', sort: 8, orgId: null, version: 3 };
export const room0803: LocationRow = { id: 3, parentId: 2, kind: 'room', name: '0803', sort: 0, orgId: null, version: 0 };

export function locationHandlers(log: RequestLog, initial: LocationRow[] = [mainBuilding, floor8, room0803]) {
  let rows = [...initial];
  let nextId = 100;
  return [
    // 查询位置 and every screen's 可选位置 answer the same tree.
    ...pickerHandlers('location', async ({ request }) => {
      await log.record(request);
      return ok(rows);
    }),
    http.post(api('/hotel/location/creation'), async ({ request }) => {
      const body = (await log.record(request)) as Omit<LocationRow, 'id' | 'version'>;
      const row = { ...body, orgId: body.orgId ?? null, id: nextId++, version: 0 };
      rows = [...rows, row];
      return ok(row, '保存成功');
    }),
    http.post(api('/hotel/location/edit'), async ({ request }) => {
      const body = (await log.record(request)) as { id: number; name: string; sort: number; version: number };
      const row = { ...(rows.find((r) => r.id === body.id) as LocationRow), name: body.name, sort: body.sort, version: body.version + 1 };
      rows = rows.map((r) => (r.id === row.id ? row : r));
      return ok(row, '保存成功');
    }),
    http.post(api('/hotel/location/rooms/creation'), async ({ request }) => {
      const body = (await log.record(request)) as { floorId: number };
      rows = [...rows, { id: nextId++, parentId: body.floorId, kind: 'room', name: '0804', sort: 0, orgId: null, version: 0 }];
      return ok({ created: 3, skipped: 2 }, '已创建 3 个房间，跳过已存在的 2 个');
    }),
    http.post(api('/hotel/location/removal'), async ({ request }) => {
      const body = (await log.record(request)) as { id: number };
      rows = rows.filter((r) => r.id !== body.id);
      return ok(null, '删除成功');
    }),
  ];
}
