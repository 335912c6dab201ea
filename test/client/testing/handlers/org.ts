/**
 * msw fixtures for sys/org: a group with a region, two hotels and a department, held in memory so a
 * save shows up when the tree reloads; a unit that still holds users is refused as the server does.
 */
import { http } from 'msw';

import type { DataOf } from '../../../../src/contract';
import { api, fail, ok } from '../handlers';
import type { RequestLog } from '../request-log';
import { pickerHandlers } from './pickers';

type AuthorityMenu = DataOf<'GET /sys/menu/authority'>[number];
type OrgRow = DataOf<'GET /sys/org/tree'>[number];

export const ORG_MENU_ID = 8;
/** 组织管理 as the authority answers it; `granted` absent grants every resource, as from an older server. */
export const orgMenu = (granted?: string[]): AuthorityMenu => ({
  id: ORG_MENU_ID,
  pid: 1,
  name: '组织管理',
  path: '/sys/org',
  element: 'sys/org',
  icon: 'ApartmentOutlined',
  sort: 3,
  state: 1,
  isAuth: 1,
  ...(granted ? { granted } : {}),
});

const unit = (id: number, pid: number | null, name: string, kind: string, code: string, version = 0): OrgRow => ({
  id,
  pid,
  name,
  kind,
  code,
  state: 1,
  sort: id,
  remark: '',
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
  version,
});

export const group = unit(1, null, '锦江集团', 'group', 'JJ');
export const east = unit(2, 1, '华东区', 'region', 'EAST');
export const shanghai = unit(3, 2, '上海店', 'hotel', 'SH01', 2);
export const frontDesk = unit(4, 3, '前厅部', 'department', 'SH01-FD');
export const hangzhou = unit(5, 2, '杭州店', 'hotel', 'HZ01');

/** The refusal of a unit that still holds users (the server counts them). */
export const NOT_EMPTY_MSG = '单位「上海店」下还有 3 个用户，请先把用户移到其他单位';

export function orgHandlers(log: RequestLog, initial: OrgRow[] = [group, east, shanghai, frontDesk, hangzhou]) {
  let rows = [...initial];
  let nextId = 100;
  return [
    // 组织管理's tree and every screen's 可选单位 answer the same units.
    ...pickerHandlers('org', async ({ request }) => {
      await log.record(request);
      return ok(rows);
    }),
    http.post(api('/sys/org/creation'), async ({ request }) => {
      const body = (await log.record(request)) as Omit<OrgRow, 'id' | 'version' | 'createdAt' | 'updatedAt'>;
      const row = { ...body, id: nextId++, version: 0, createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_000 };
      rows = [...rows, row];
      return ok(row, '保存成功');
    }),
    http.post(api('/sys/org/edit'), async ({ request }) => {
      const body = (await log.record(request)) as OrgRow;
      const current = rows.find((row) => row.id === body.id) as OrgRow;
      const row = { ...current, ...body, pid: body.pid ?? current.pid, version: body.version + 1 };
      rows = rows.map((r) => (r.id === row.id ? row : r));
      return ok(row, '保存成功');
    }),
    http.post(api('/sys/org/removal'), async ({ request }) => {
      const body = (await log.record(request)) as { id: number };
      if (body.id === shanghai.id) return fail(409, NOT_EMPTY_MSG);
      rows = rows.filter((row) => row.id !== body.id);
      return ok(null, '删除成功');
    }),
  ];
}
