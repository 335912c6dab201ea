/** msw fixtures for hotel/device: devices, their dictionary labels, the key answered once. */
import { http } from 'msw';

import type { DataOf } from '../../../../src/contract';
import { api, ok } from '../handlers';
import type { RequestLog } from '../request-log';
import { crudHandlers, menuHandlers } from './list-crud';
import { locationHandlers, room0803 } from './location';
import { adminMenuWithMonitor, deviceOffline, MONITOR_MENU_ID, operationDict } from './monitor';
import { dictEntry, stateEntries } from './sys-common';

type DeviceRow = DataOf<'/hotel/device/inquire'>['records'][number];

export const DEVICE_MENU_ID = 11;
export const ISSUED_KEY = 'dk_9f2c41e07ab34d5e';

export const deviceDict = [
  ...stateEntries,
  dictEntry('type', 'lock', '门锁', 1),
  dictEntry('type', 'meter', '电表', 2),
  dictEntry('online', '1', '在线', 1),
  dictEntry('online', '0', '离线', 2),
];

export const lock101: DeviceRow = {
  id: 41,
  name: '101 门锁',
  sn: 'LOCK-0101',
  type: 'lock',
  locationId: room0803.id,
  orgId: null,
  gatewayId: null,
  locationPath: '主楼 / 8F / 0803',
  state: 1,
  online: 1,
  // 2024-01-01 00:00:00 UTC = 08:00 in Asia/Shanghai.
  lastSeenAt: 1_704_067_200_000,
  onlineSince: 1_704_060_000_000,
  offlineSince: null,
  remark: '',
  version: 6,
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
};

export function deviceHandlers(log: RequestLog) {
  return [
    ...menuHandlers({ [DEVICE_MENU_ID]: deviceDict }, log),
    ...crudHandlers(log, { base: '/hotel/device', records: [lock101], created: { device: lock101, deviceKey: ISSUED_KEY }, edited: lock101 }),
    // The location filter and picker read the tree.
    ...locationHandlers(log),
    // A server with MQTT configured, so 重启 is offered.
    http.get(api('/sys/capabilities'), () => ok({ mqtt: true })),
    http.post(api('/hotel/device/key/reset'), async ({ request }) => {
      await log.record(request);
      return ok({ device: lock101, deviceKey: 'dk_new_77aa' }, '密钥已重置');
    }),
    http.post(api('/hotel/device/removal'), async ({ request }) => {
      await log.record(request);
      return ok(null, '设备已删除，其状态记录、告警和操作日志仍可查阅');
    }),
  ];
}

/**
 * For an operator who may read the operation log: the menu holds 操作日志, whose dictionary labels
 * the device's status records, read from the log by target.
 */
export function deviceHistoryHandlers(log: RequestLog) {
  const dictByMenu: Record<number, typeof deviceDict> = { [DEVICE_MENU_ID]: deviceDict, [MONITOR_MENU_ID.operation]: operationDict };
  return [
    http.get(api('/sys/menu/authority'), () => ok(adminMenuWithMonitor)),
    http.post(api('/sys/dict/resource/inquire'), async ({ request }) => {
      const { menuId } = (await log.record(request)) as { menuId: number };
      return ok(dictByMenu[menuId] ?? []);
    }),
    http.post(api('/monitor/operation/inquire'), async ({ request }) => {
      const { size, current } = (await log.record(request)) as { size: number; current: number };
      return ok({ records: [deviceOffline], current, size, total: 1, totalIsLowerBound: false });
    }),
  ];
}
