/** msw handlers for the menu screen: the menu tree and a menu's resources. */
import { http } from 'msw';

import type { DataOf } from '../../../../src/contract';
import type { MenuNode } from '../../../../src/contract/sys/menu';
import { api, ok } from '../handlers';
import type { RequestLog } from '../request-log';
import { dictEntry, paged, stateEntries, sysCommonHandlers, SYS_MENU_ID } from './sys-common';

type ResourceRow = DataOf<'/sys/resource/menu/inquire'>['records'][number];

const menu = (id: number, pid: number | null, name: string, path: string, element: string, icon: string, children?: MenuNode[]): MenuNode => ({
  id,
  pid,
  name,
  path,
  element,
  icon,
  sort: id,
  state: 1,
  isAuth: 1,
  version: 2,
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
  ...(children ? { children } : {}),
});

export const userMenu = menu(3, 1, '用户管理', '/sys/user', 'sys/user', 'UserOutlined');
export const reportMenu = menu(8, 1, '报表', '/sys/report', 'sys/report', '');
export const systemMenu = menu(1, null, '系统管理', '/sys', '', 'SettingOutlined', [userMenu, reportMenu]);

export const inquireResource: ResourceRow = { id: 31, menuId: 3, name: '查询用户', type: 'api_inquire', path: '/sys/user/inquire', remark: '', version: 4 };
export const stateResource: ResourceRow = { id: 32, menuId: 3, name: '状态字段', type: 'field_state', path: '', remark: '', version: 1 };

const menuDict = [...stateEntries, dictEntry('isAuth', '1', '需要授权', 1), dictEntry('isAuth', '0', '公开', 2)];

export function menuHandlers(log: RequestLog) {
  return [
    ...sysCommonHandlers({ [SYS_MENU_ID.menu]: menuDict }),
    http.post(api('/sys/menu/inquire'), async ({ request }) => {
      await log.record(request);
      return ok(paged([systemMenu]));
    }),
    http.post(api('/sys/menu/creation'), async ({ request }) => {
      await log.record(request);
      return ok(reportMenu, '菜单添加成功');
    }),
    http.post(api('/sys/menu/edit'), async ({ request }) => {
      await log.record(request);
      return ok(userMenu, '菜单修改成功');
    }),
    http.post(api('/sys/resource/menu/inquire'), async ({ request }) => {
      await log.record(request);
      return ok(paged([inquireResource, stateResource]));
    }),
    http.post(api('/sys/resource/creation'), async ({ request }) => {
      await log.record(request);
      return ok(inquireResource, '资源添加成功');
    }),
    http.post(api('/sys/resource/edit'), async ({ request }) => {
      await log.record(request);
      return ok(stateResource, '资源修改成功');
    }),
  ];
}
