/** msw handlers and fixtures for the session endpoints, answering the envelope like the server. */
import { http, HttpResponse } from 'msw';

import type { DataOf } from '../../../src/contract';

type AuthorityMenu = DataOf<'GET /sys/menu/authority'>[number];

export const TOKEN = 'test-token-3f9a';

export const api = (path: string) => `http://localhost/api${path}`;

export const ok = <T>(data: T, msg = '操作成功') => HttpResponse.json({ code: 200, msg, data });
export const fail = (code: number, msg: string) => HttpResponse.json({ code, msg, data: null });

const entry = (id: number, pid: number | null, name: string, path: string, element: string, icon: string, sort: number): AuthorityMenu => ({
  id,
  pid,
  name,
  path,
  element,
  icon,
  sort,
  state: 1,
  isAuth: 1,
});

/** The seeded menu, as the server authorises it for the administrator. */
export const adminMenu: AuthorityMenu[] = [
  entry(1, null, '系统管理', '/sys', '', 'SettingOutlined', 1),
  entry(2, 1, '控制台', '/sys/panel', 'sys/panel', 'DashboardOutlined', 1),
  entry(3, 1, '用户管理', '/sys/user', 'sys/user', 'UserOutlined', 2),
  entry(4, 1, '角色管理', '/sys/role', 'sys/role', 'TeamOutlined', 3),
  entry(10, null, '酒店管理', '/hotel', '', 'ShopOutlined', 2),
  entry(11, 10, '设备管理', '/hotel/device', 'hotel/device', 'ApiOutlined', 1),
  entry(12, 10, '高级设置', '/hotel/advanced', 'hotel/advanced', 'ControlOutlined', 2),
];

export const panelData: DataOf<'/sys/panel/inquire'> = {
  users: 12,
  usersEnabled: 10,
  roles: 3,
  devices: 40,
  devicesOnline: 37,
  devicesOffline: 3,
  schedulesEnabled: 4,
  schedulesFailedLastRun: 1,
  activeSessions: 2,
  onlineHistory: [
    { at: Date.UTC(2026, 0, 1, 0), online: 35, total: 40 },
    { at: Date.UTC(2026, 0, 1, 1), online: 37, total: 40 },
  ],
  signInsPerDay: Array.from({ length: 14 }, (_, index) => ({ day: `2026-01-${String(index + 1).padStart(2, '0')}`, count: index % 3 })),
  scheduleRunsPerDay: Array.from({ length: 14 }, (_, index) => ({ day: `2026-01-${String(index + 1).padStart(2, '0')}`, success: 24, failed: index === 13 ? 1 : 0 })),
  devicesByType: [
    { type: 'lock', label: '智能门锁', count: 30 },
    { type: 'tv', label: '电视', count: 10 },
  ],
  alarmsActive: 3,
  latestAlarms: [
    { id: 7, type: 'offline', severity: 'major', message: '设备心跳超时，已离线', lastAt: Date.UTC(2026, 0, 1, 1), count: 2, deviceName: '0808 门锁', deviceSn: 'LOCK-0808' },
  ],
};

export const loginData = (menu: AuthorityMenu[] = adminMenu): DataOf<'/sys/user/verify'> => ({
  role: { id: 1, name: '超级管理员' },
  menu,
  token: TOKEN,
  userName: 'admin',
  nickName: '系统管理员',
});

export const sessionHandlers = [
  http.post(api('/sys/user/verify'), () => ok(loginData(), '登录成功')),
  http.get(api('/sys/menu/authority'), () => ok(adminMenu)),
  http.post(api('/sys/user/logout'), () => ok(null, '已退出登录')),
  http.post(api('/sys/panel/inquire'), () => ok(panelData)),
  http.post(api('/sys/dict/resource/inquire'), () => ok([])),
];
