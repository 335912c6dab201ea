/**
 * msw fixtures for the 系统监控 screens: the operation log (with a user edit's before/after), the
 * login log, the online sessions with force logout, their dictionaries, export and chain checks.
 */
import { http, HttpResponse } from 'msw';

import type { DataOf } from '../../../../src/contract';
import { adminMenu, api, ok } from '../handlers';
import type { RequestLog } from '../request-log';
import { dictEntry, sysMenu } from './sys-common';

type AuthorityMenu = DataOf<'GET /sys/menu/authority'>[number];
type OperationRow = DataOf<'/monitor/operation/inquire'>['records'][number];
type OperationDetail = DataOf<'/monitor/operation/detail'>;
type LoginRow = DataOf<'/monitor/login/inquire'>['records'][number];
type OnlineRow = DataOf<'/monitor/online/inquire'>['records'][number];

export const MONITOR_MENU_ID = { area: 30, operation: 31, login: 32, online: 33 } as const;

export const monitorScreens: AuthorityMenu[] = [
  { id: MONITOR_MENU_ID.area, pid: null, name: '系统监控', path: '/monitor', element: '', icon: 'SafetyOutlined', sort: 3, state: 1, isAuth: 1 },
  {
    id: MONITOR_MENU_ID.operation,
    pid: MONITOR_MENU_ID.area,
    name: '操作日志',
    path: '/monitor/operation',
    element: 'monitor/operation',
    icon: 'FileSearchOutlined',
    sort: 1,
    state: 1,
    isAuth: 1,
  },
  { id: MONITOR_MENU_ID.login, pid: MONITOR_MENU_ID.area, name: '登录日志', path: '/monitor/login', element: 'monitor/login', icon: 'LoginOutlined', sort: 2, state: 1, isAuth: 1 },
  {
    id: MONITOR_MENU_ID.online,
    pid: MONITOR_MENU_ID.area,
    name: '在线用户',
    path: '/monitor/online',
    element: 'monitor/online',
    icon: 'WifiOutlined',
    sort: 3,
    state: 1,
    isAuth: 1,
  },
];

/** The administrator's menu with the system and monitor screens. */
export const monitorMenu: AuthorityMenu[] = [...sysMenu, ...monitorScreens];
/** The shell's menu (app renders) with the monitor screens. */
export const adminMenuWithMonitor: AuthorityMenu[] = [...adminMenu, ...monitorScreens];

export const operationDict = [
  dictEntry('outcome', 'success', '成功', 1),
  dictEntry('outcome', 'refused', '拒绝', 2),
  dictEntry('outcome', 'failed', '失败', 3),
  dictEntry('operatorType', 'user', '用户', 1),
  dictEntry('operatorType', 'system', '系统', 3),
  dictEntry('operatorType', 'device', '设备', 4),
  dictEntry('targetType', 'user', '用户', 1),
  dictEntry('targetType', 'device', '设备', 7),
];

export const loginDict = [
  dictEntry('event', 'signIn', '登录', 1),
  dictEntry('event', 'signOut', '退出', 2),
  dictEntry('event', 'sessionEnd', '会话结束', 3),
  dictEntry('outcome', 'success', '成功', 1),
  dictEntry('outcome', 'wrongPassword', '密码错误', 2),
  dictEntry('outcome', 'forced', '强制下线', 9),
];

/** 2026-03-01 09:30:00 in Asia/Shanghai. */
export const NINE_THIRTY = Date.UTC(2026, 2, 1, 1, 30, 0);

export const userEdit: OperationRow = {
  id: 501,
  at: NINE_THIRTY,
  operatorType: 'user',
  operatorId: 1,
  operatorName: 'admin',
  module: '用户管理',
  action: '编辑用户',
  path: '/sys/user/edit',
  targetType: 'user',
  targetId: '12',
  targetLabel: 'zhangsan',
  outcome: 'success',
  code: 200,
  msg: '修改成功',
  ip: '10.0.0.8',
  durationMs: 23,
  actorOrgId: 1,
  targetOrgId: 2,
};

export const refusedGrant: OperationRow = {
  ...userEdit,
  id: 500,
  at: NINE_THIRTY - 60_000,
  operatorName: 'frontdesk',
  operatorId: 7,
  module: '角色管理',
  action: '角色授权',
  path: '/sys/role/auth',
  targetType: 'role',
  targetId: '3',
  targetLabel: '前台',
  outcome: 'refused',
  code: 403,
  msg: '没有权限执行此操作',
};

export const deviceOffline: OperationRow = {
  ...userEdit,
  id: 499,
  at: NINE_THIRTY - 120_000,
  operatorType: 'system',
  operatorId: null,
  operatorName: '系统',
  module: '设备管理',
  action: '设备离线',
  path: '',
  targetType: 'device',
  targetId: '41',
  targetLabel: '101 门锁（LOCK-0101）',
  msg: '设备心跳超时，状态由在线变为离线',
  ip: '',
  durationMs: 0,
};

export const userEditDetail: OperationDetail = {
  ...userEdit,
  params: { id: 12, version: 3, nickName: '张三丰', state: 1, roleId: 2 },
  changes: [{ field: 'nickName', title: '昵称', before: '张三', after: '张三丰' }],
  prevHash: 'a1b2c3',
  hash: 'd4e5f6',
};

export const operationOptions: DataOf<'/monitor/operation/options'> = [
  { module: '用户管理', actions: ['新增用户', '编辑用户'] },
  { module: '角色管理', actions: ['角色授权'] },
];

export const wrongPassword: LoginRow = {
  id: 71,
  at: NINE_THIRTY,
  event: 'signIn',
  outcome: 'wrongPassword',
  userId: 12,
  userName: 'zhangsan',
  ip: '10.0.0.9',
  browser: 'Chrome 126.0',
  os: 'Windows 10',
  msg: '用户名或密码错误',
  orgId: 2,
};

export const adminSession: OnlineRow = {
  sessionId: 9,
  userId: 1,
  userName: 'admin',
  nickName: '系统管理员',
  roleName: '超级管理员',
  ip: '10.0.0.8',
  browser: 'Chrome 126.0',
  os: 'Windows 10',
  signedInAt: NINE_THIRTY,
  lastSeenAt: NINE_THIRTY + 60_000,
  expiresAt: NINE_THIRTY + 7_200_000,
  current: 1,
};

export const frontdeskSession: OnlineRow = {
  ...adminSession,
  sessionId: 14,
  userId: 7,
  userName: 'frontdesk',
  nickName: '前台小王',
  roleName: '前台',
  ip: '10.0.0.21',
  browser: 'Edge 125.0',
  os: 'macOS 14.5',
  current: 0,
};

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const EXPORT_NAME = '操作日志-202603010930.xlsx';

const verified: DataOf<'/monitor/operation/integrity'> = { ok: true, checked: 3, anchorId: 0, headId: 501, firstBroken: null };

const capped = <T>(records: T[], body: { size: number; current: number }) => ({ records, current: body.current, size: body.size, total: records.length, totalIsLowerBound: false });

/** Every monitor call, recorded; online sessions shrink as they are forced out. */
export function monitorHandlers(log: RequestLog) {
  let sessions = [adminSession, frontdeskSession];
  const dictByMenu: Record<number, typeof operationDict> = { [MONITOR_MENU_ID.operation]: operationDict, [MONITOR_MENU_ID.login]: loginDict };
  const record = async (request: Request) => (await log.record(request)) as { size: number; current: number };
  return [
    http.get(api('/sys/menu/authority'), () => ok(monitorMenu)),
    http.post(api('/sys/dict/resource/inquire'), async ({ request }) => {
      const { menuId } = (await log.record(request)) as { menuId: number };
      return ok(dictByMenu[menuId] ?? []);
    }),
    http.post(api('/monitor/operation/inquire'), async ({ request }) => ok(capped([userEdit, refusedGrant, deviceOffline], await record(request)))),
    http.post(api('/monitor/operation/detail'), async ({ request }) => {
      await log.record(request);
      return ok(userEditDetail);
    }),
    http.post(api('/monitor/operation/options'), async ({ request }) => {
      await log.record(request);
      return ok(operationOptions);
    }),
    http.post(api('/monitor/operation/integrity'), async ({ request }) => {
      await log.record(request);
      return ok(verified);
    }),
    http.post(api('/monitor/operation/export'), async ({ request }) => {
      await log.record(request);
      return new HttpResponse(new Uint8Array([0x50, 0x4b, 0x03, 0x04]), {
        headers: { 'content-type': XLSX_TYPE, 'content-disposition': `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent(EXPORT_NAME)}` },
      });
    }),
    http.post(api('/monitor/login/inquire'), async ({ request }) => ok(capped([wrongPassword], await record(request)))),
    http.post(api('/monitor/online/inquire'), async ({ request }) => ok(capped(sessions, await record(request)))),
    http.post(api('/monitor/online/revoke'), async ({ request }) => {
      const { sessionId } = (await log.record(request)) as { sessionId: number };
      sessions = sessions.filter((session) => session.sessionId !== sessionId);
      return ok({ count: 1 }, '已强制下线 1 个会话');
    }),
    http.post(api('/monitor/online/revoke/user'), async ({ request }) => {
      const { userId } = (await log.record(request)) as { userId: number };
      const count = sessions.filter((session) => session.userId === userId && session.current !== 1).length;
      sessions = sessions.filter((session) => session.userId !== userId || session.current === 1);
      return ok({ count }, `已强制下线 ${count} 个会话`);
    }),
  ];
}
