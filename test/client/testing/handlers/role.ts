/** msw handlers for the role screen: roles, the menu resources a role can hold, its grants and users. */
import { http } from 'msw';

import type { DataOf } from '../../../../src/contract';
import { api, ok } from '../handlers';
import type { RequestLog } from '../request-log';
import { paged, stateEntries, sysCommonHandlers, SYS_MENU_ID } from './sys-common';

type RoleRow = DataOf<'/sys/role/inquire'>['records'][number];
type MenuWithResources = DataOf<'/sys/menu/resources'>['records'][number];
type UserRow = DataOf<'/sys/role/user/inquire'>['records'][number];

const role = (id: number, name: string, builtin: number): RoleRow => ({
  id,
  name,
  dataScope: 'all',
  scopeOrgIds: [],
  remark: '',
  state: 1,
  builtin,
  userCount: 1,
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
  version: 3,
});

export const adminRole = role(1, '超级管理员', 1);
export const deskRole = role(2, '前台', 0);

const resource = (id: number, menuId: number, name: string) => ({ id, menuId, name, type: `api_r${id}`, path: '', remark: '', version: 0 });

const area = (id: number, name: string, path: string): MenuWithResources => ({ id, pid: null, name, path, element: '', resources: [] });

/** Three areas holding the screens; 接口文档 has no resources, so it is ticked by itself. */
export const grantableMenus: MenuWithResources[] = [
  area(1, '系统管理', '/sys'),
  area(10, '酒店管理', '/hotel'),
  area(20, '系统监控', '/monitor'),
  { id: 3, pid: 1, name: '用户管理', path: '/sys/user', element: 'sys/user', resources: [resource(31, 3, '查询用户'), resource(32, 3, '新增用户')] },
  {
    id: 11,
    pid: 10,
    name: '设备管理',
    path: '/hotel/device',
    element: 'hotel/device',
    resources: [resource(111, 11, '查询设备'), resource(112, 11, '编辑设备'), { ...resource(113, 11, '设备管理·设备类型'), type: 'field_type' }],
  },
  { id: 21, pid: 20, name: '接口文档', path: '/monitor/api-docs', element: 'monitor/api-docs', resources: [] },
];

/** 前台 holds the user menu and one of its resources. */
export const deskGrants = [
  { type: 'menu' as const, resource: 3 },
  { type: 'resource' as const, resource: 31 },
];

const user = (id: number, userName: string, roleId: number | null, roleName: string | null): UserRow => ({
  id,
  userName,
  nickName: `${userName}-昵称`,
  orgId: null,
  orgName: null,
  state: 1,
  roleId,
  roleName,
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
  version: 0,
});

export const deskUser = user(21, 'desk01', 2, '前台');
export const otherUser = user(22, 'clerk02', 5, '客房');

export function roleHandlers(log: RequestLog) {
  return [
    ...sysCommonHandlers({ [SYS_MENU_ID.role]: stateEntries }),
    http.post(api('/sys/role/inquire'), async ({ request }) => {
      await log.record(request);
      return ok(paged([adminRole, deskRole]));
    }),
    http.post(api('/sys/role/creation'), async ({ request }) => {
      await log.record(request);
      return ok(role(3, '夜审', 0), '角色添加成功');
    }),
    http.post(api('/sys/role/edit'), async ({ request }) => {
      await log.record(request);
      return ok(deskRole, '角色修改成功');
    }),
    http.post(api('/sys/menu/resources'), async ({ request }) => {
      await log.record(request);
      return ok(paged(grantableMenus, 1, 100));
    }),
    http.get(api('/sys/role/auth'), async ({ request }) => {
      await log.record(request);
      return ok(deskGrants);
    }),
    http.post(api('/sys/role/auth'), async ({ request }) => {
      await log.record(request);
      return ok([], '授权已保存');
    }),
    http.post(api('/sys/role/user/inquire'), async ({ request }) => {
      const body = (await log.record(request)) as { params: { member?: number } };
      return ok(paged(body.params.member === 0 ? [otherUser] : [deskUser], 1, 10));
    }),
    http.post(api('/sys/role/bind/user'), async ({ request }) => {
      await log.record(request);
      return ok(null, '已绑定用户 clerk02');
    }),
    http.post(api('/sys/role/unbind/user'), async ({ request }) => {
      await log.record(request);
      return ok(null, '已解绑用户 desk01');
    }),
  ];
}
