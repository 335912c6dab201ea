/**
 * msw handlers for a list screen's three calls (inquire, creation, edit) that record what was sent
 * and answer like the server: a page of fixed records, the saved record with the server msg.
 */
import { http } from 'msw';

import type { DataOf } from '../../../../src/contract';
import { adminMenu, api, ok } from '../handlers';
import type { RequestLog } from '../request-log';
import { paged } from './sys-common';

type AuthorityMenu = DataOf<'GET /sys/menu/authority'>[number];
type MenuDictEntry = DataOf<'/sys/dict/resource/inquire'>[number];

export const DICT_MENU: AuthorityMenu = { id: 6, pid: 1, name: '数据字典', path: '/sys/dict', element: 'sys/dict', icon: 'BookOutlined', sort: 5, state: 1, isAuth: 1 };

/** The admin menu plus the dictionary screen, and one menu dictionary answer per menu id. */
export function menuHandlers(dictByMenu: Record<number, MenuDictEntry[]>, log?: RequestLog) {
  return [
    http.get(api('/sys/menu/authority'), () => ok([...adminMenu, DICT_MENU])),
    http.post(api('/sys/dict/resource/inquire'), async ({ request }) => {
      const body = (log ? await log.record(request) : await request.json()) as { menuId: number };
      return ok(dictByMenu[body.menuId] ?? []);
    }),
  ];
}

interface CrudFixture<Row> {
  /** e.g. '/hotel/device': its /inquire, /creation and /edit are answered. */
  base: string;
  records: Row[];
  created: unknown;
  edited: Row;
  /** The server msg of a successful save. */
  savedMsg?: string;
}

export function crudHandlers<Row>(log: RequestLog, { base, records, created, edited, savedMsg = '保存成功' }: CrudFixture<Row>) {
  return [
    http.post(api(`${base}/inquire`), async ({ request }) => {
      const body = (await log.record(request)) as { size: number; current: number };
      // More records than one page, so the pager offers its size changer and pages.
      return ok({ ...paged(records, body.current, body.size), total: 45 });
    }),
    http.post(api(`${base}/creation`), async ({ request }) => {
      await log.record(request);
      return ok(created, savedMsg);
    }),
    http.post(api(`${base}/edit`), async ({ request }) => {
      await log.record(request);
      return ok(edited, savedMsg);
    }),
  ];
}
