/** msw fixtures for hotel/alarm: two alarms (one active, one cleared), severity labels, type timeouts. */
import { http } from 'msw';

import type { DataOf } from '../../../../src/contract';
import { adminMenu, api, ok } from '../handlers';
import type { RequestLog } from '../request-log';
import { dictEntry } from './sys-common';

type AlarmRow = DataOf<'/hotel/alarm/inquire'>['records'][number];
type AuthorityMenu = DataOf<'GET /sys/menu/authority'>[number];

export const ALARM_MENU_ID = 13;
export const ALARM_MENU: AuthorityMenu = {
  id: ALARM_MENU_ID,
  pid: 10,
  name: '告警管理',
  path: '/hotel/alarm',
  element: 'hotel/alarm',
  icon: 'AlertOutlined',
  sort: 2,
  state: 1,
  isAuth: 1,
};

export const alarmDict = [
  dictEntry('severity', 'critical', '严重', 1),
  dictEntry('severity', 'major', '重要', 2),
  dictEntry('severity', 'minor', '次要', 3),
  dictEntry('severity', 'warning', '警告', 4),
];

export const activeAlarm: AlarmRow = {
  id: 71,
  deviceId: 41,
  deviceName: '101 门锁',
  deviceSn: 'LOCK-0101',
  type: 'offline',
  severity: 'major',
  message: '设备心跳超时，已离线',
  // 2024-01-01 08:00:00 in Asia/Shanghai.
  startedAt: 1_704_067_200_000,
  lastAt: 1_704_067_260_000,
  count: 2,
  acknowledgedBy: null,
  acknowledgedAt: null,
  acknowledgeNote: '',
  clearedBy: null,
  clearedAt: null,
  causeId: null,
  locationId: null,
  locationPath: null,
  symptomCount: 0,
};

export const clearedAlarm: AlarmRow = {
  ...activeAlarm,
  id: 70,
  deviceId: 42,
  deviceName: '102 电表',
  deviceSn: 'METER-0102',
  count: 1,
  acknowledgedBy: 'admin',
  acknowledgedAt: 1_704_067_300_000,
  clearedBy: '系统',
  clearedAt: 1_704_067_400_000,
};

/** Cleared by the system before anyone acknowledged it: nothing left to acknowledge. */
export const clearedUnacknowledged: AlarmRow = {
  ...activeAlarm,
  id: 69,
  deviceId: 43,
  deviceName: '103 空调',
  deviceSn: 'AC-0103',
  count: 1,
  clearedBy: '系统',
  clearedAt: 1_704_067_500_000,
};

export function alarmHandlers(log: RequestLog) {
  return [
    http.get(api('/sys/menu/authority'), () => ok([...adminMenu, ALARM_MENU])),
    http.post(api('/sys/dict/resource/inquire'), async ({ request }) => {
      const { menuId } = (await log.record(request)) as { menuId: number };
      return ok(menuId === ALARM_MENU_ID ? alarmDict : []);
    }),
    http.post(api('/hotel/alarm/inquire'), async ({ request }) => {
      const { size, current } = (await log.record(request)) as { size: number; current: number };
      return ok({ records: [activeAlarm, clearedAlarm, clearedUnacknowledged], current, size, total: 3 });
    }),
    http.post(api('/hotel/alarm/acknowledge'), async ({ request }) => {
      await log.record(request);
      return ok({ count: 1 }, '已确认 1 条告警');
    }),
    http.post(api('/hotel/alarm/batch/acknowledge'), async ({ request }) => {
      const { ids } = (await log.record(request)) as { ids: number[] };
      return ok({ count: ids.length }, `已确认 ${ids.length} 条告警`);
    }),
    http.post(api('/hotel/alarm/clear'), async ({ request }) => {
      await log.record(request);
      return ok({ count: 1 }, '已清除 1 条告警');
    }),
    http.post(api('/hotel/alarm/timeout/inquire'), async ({ request }) => {
      await log.record(request);
      return ok({
        defaultMinutes: 5,
        types: [
          { type: 'lock', label: '门锁', minutes: 2 },
          { type: 'meter', label: '电表', minutes: null },
        ],
      });
    }),
    http.post(api('/hotel/alarm/timeout/edit'), async ({ request }) => {
      const body = (await log.record(request)) as { type: string; minutes: number | null };
      return ok({ ...body, label: '电表' }, '保存成功');
    }),
  ];
}
