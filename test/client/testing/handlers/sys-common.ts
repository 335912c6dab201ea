/** Fixtures the system screens share: the authorised menu with every system screen, paging, dictionaries. */
import { http } from 'msw';

import type { DataOf } from '../../../../src/contract';
import { adminMenu, api, ok } from '../handlers';

type AuthorityMenu = DataOf<'GET /sys/menu/authority'>[number];
type MenuDictEntry = DataOf<'/sys/dict/resource/inquire'>[number];

export const SYS_MENU_ID = { role: 4, menu: 5, schedule: 7 } as const;

const systemScreens: AuthorityMenu[] = [
  { id: SYS_MENU_ID.menu, pid: 1, name: '菜单管理', path: '/sys/menu', element: 'sys/menu', icon: 'MenuOutlined', sort: 4, state: 1, isAuth: 1 },
  { id: SYS_MENU_ID.schedule, pid: 1, name: '定时任务', path: '/sys/schedule', element: 'sys/schedule', icon: 'ClockCircleOutlined', sort: 6, state: 1, isAuth: 1 },
];

/** The administrator's menu with every system screen this suite renders. */
export const sysMenu: AuthorityMenu[] = [...adminMenu, ...systemScreens];

export const paged = <T>(records: T[], current = 1, size = 20) => ({ records, current, size, total: records.length });

let nextDictId = 1;
export const dictEntry = (field: string, value: string, label: string, sort = 0): MenuDictEntry => ({
  resourceId: 100,
  field,
  dictId: nextDictId++,
  code: field,
  label,
  value,
  sort,
});

export const stateEntries = [dictEntry('state', '1', '启用', 1), dictEntry('state', '0', '禁用', 2)];

/** The authorised menu and a menu dictionary answer per menu id. */
export function sysCommonHandlers(dictByMenu: Record<number, MenuDictEntry[]>) {
  return [
    http.get(api('/sys/menu/authority'), () => ok(sysMenu)),
    http.post(api('/sys/dict/resource/inquire'), async ({ request }) => {
      const { menuId } = (await request.json()) as { menuId: number };
      return ok(dictByMenu[menuId] ?? []);
    }),
  ];
}
