/**
 * What devices going offline or coming back, and the alarms the system raised or cleared for them,
 * leave in the operation log: one record per device or alarm, or one summary record for a mass
 * change. The transitions (transitions.ts) collect them in tallies while they run and write them
 * once the run has committed.
 */
import type { FastifyInstance } from 'fastify';
import type { OperationEntry } from '../../lib/audit-chain';
import { idIn } from '../../lib/id-list';
import { alarmTypeLabel } from '../../../contract/constants';

/** Who the records name as the operator of what the system did on its own. */
const SYSTEM_OPERATOR = '系统';

export interface StatusDevice {
  id: number;
  name: string;
  sn: string;
}

/** An alarm a record names: its type and its device; a location alarm also its floor or building (an id, a path once named). */
export interface RecordedAlarm<Device, Location = number> {
  id: number;
  type: string;
  device: Device;
  location?: Location;
}

/** How the operation log names an alarm, in the system's records and staff's alike: `设备离线：name（sn）`. */
export const alarmLabel = (type: string, device: { name: string; sn: string }) => `${alarmTypeLabel(type)}：${device.name}（${device.sn}）`;

/**
 * What a location alarm's record says: its floor or building (`楼层断连：主楼 / 8F，…`), not the
 * representative device its label names.
 */
const locationAlarmMessage = (type: string, path: string, raised: boolean) =>
  `${alarmTypeLabel(type)}：${path}，${raised ? '大部分设备同时离线，产生告警' : '设备恢复在线，告警自动清除'}`;

/** Up to this many devices or alarms of one change get a record each; more (a mass outage) get one summary record. */
export const AUDIT_ITEMIZED = 100;

type SystemEntry = Omit<OperationEntry, 'targetId' | 'targetLabel' | 'msg' | 'actorOrgId' | 'targetOrgId'>;
interface Itemized<T> {
  /** The first items (all of them up to AUDIT_ITEMIZED); `total` says how many there were. */
  items: T[];
  total: number;
  /** A record's own fields; it may also override common ones (a device is its own operator). */
  record: (item: T) => Pick<OperationEntry, 'targetId' | 'targetLabel' | 'msg'> & Partial<OperationEntry>;
  /** The device an item is about: its hotel is the record's target unit. */
  deviceOf: (item: T) => number;
  summary: Pick<OperationEntry, 'targetLabel' | 'msg'>;
}

/**
 * Appends one record per item in one chain append, or a single summary record (no target id) when
 * there are more than AUDIT_ITEMIZED: a mass outage of a hotel group must not write a million chained
 * records (their detail is in hotel_device_transition and hotel_alarm). The module is the menu of
 * `element`, looked up with the names cache.
 */
async function recordSystemChange<T>(
  app: FastifyInstance,
  element: string,
  common: Omit<SystemEntry, 'module'>,
  { items, total, record, deviceOf, summary }: Itemized<T>,
  at: number,
): Promise<void> {
  if (total === 0) return;
  let module = '';
  try {
    module = await app.audit.moduleOf(element);
  } catch (error) {
    app.log.error({ err: error }, 'operation log names lookup failed');
  }
  // The system acts for no unit; an itemized record is scoped by its device's hotel, a summary (many hotels) by none.
  const unscoped = { actorOrgId: null, targetOrgId: null };
  if (total > AUDIT_ITEMIZED) {
    await app.audit.operations([{ ...common, ...unscoped, module, targetId: '', ...summary }], at);
    return;
  }
  const units = new Map<number, number | null>();
  try {
    const ids = [...new Set(items.map(deviceOf))];
    const rows = await app.db
      .selectFrom('hotelDevice')
      .select(['id', 'orgId'])
      .where(idIn(app.dialect, 'id', ids))
      .execute();
    for (const row of rows) units.set(row.id, row.orgId);
  } catch (error) {
    app.log.error({ err: error }, 'operation log units lookup failed');
  }
  const entries: OperationEntry[] = items.map((item) => ({ ...common, ...unscoped, targetOrgId: units.get(deviceOf(item)) ?? null, module, ...record(item) }));
  await app.audit.operations(entries, at);
}

const systemRecord = { operatorId: null, path: '', outcome: 'success', code: 200, ip: '', durationMs: 0, params: 'null' } as const;

/** What one run of changes did, kept for its audit records: the first AUDIT_ITEMIZED items (all of them when there are no more) and the count. */
export class ChangeTally<T> {
  readonly items: T[] = [];
  total = 0;

  add(items: readonly T[]): void {
    this.total += items.length;
    for (const item of items) {
      if (this.full) return;
      this.items.push(item);
    }
  }

  /** Whether it keeps no more items: a caller may then count what it adds (`addCount`) instead of reading the items. */
  get full(): boolean {
    return this.items.length >= AUDIT_ITEMIZED;
  }

  /** Adds `count` to the total, once the tally is full. */
  addCount(count: number): void {
    if (!this.full) throw new Error('ChangeTally.addCount before the tally is full would lose items');
    this.total += count;
  }

  /** The same tally (its total and the items it keeps) with each item mapped. */
  map<U>(mapItem: (item: T) => U): ChangeTally<U> {
    const mapped = new ChangeTally<U>();
    mapped.items.push(...this.items.map(mapItem));
    mapped.total = this.total;
    return mapped;
  }
}

/**
 * Records devices going offline (to 0, by the system's sweep) or coming back online (to 1, by the
 * device's own heartbeat): status changes, never the heartbeats in between. A device that comes
 * back is named as the operator (by its serial number) unless the change is a summary.
 */
export async function recordDeviceStatus(app: FastifyInstance, devices: ChangeTally<StatusDevice>, from: number, to: number, at = Date.now()): Promise<void> {
  if (from === to) return;
  const online = to === 1;
  const { total } = devices;
  await recordSystemChange(
    app,
    'hotel/device',
    {
      ...systemRecord,
      operatorType: online && total <= AUDIT_ITEMIZED ? 'device' : 'system',
      operatorName: SYSTEM_OPERATOR,
      action: online ? '设备上线' : '设备离线',
      path: online ? '/hotel/device/heartbeat' : '',
      targetType: 'device',
      changes: JSON.stringify([{ field: 'online', title: '在线状态', before: from, after: to }]),
    },
    {
      items: devices.items,
      total,
      record: (device) => ({
        ...(online ? { operatorName: device.sn } : {}),
        targetId: String(device.id),
        targetLabel: `${device.name}（${device.sn}）`,
        msg: online ? '设备恢复心跳，状态由离线变为在线' : '设备心跳超时，状态由在线变为离线',
      }),
      deviceOf: (device) => device.id,
      summary: {
        targetLabel: `${total} 台设备`,
        msg: online ? `${total} 台设备恢复心跳，状态由离线变为在线` : `${total} 台设备心跳超时，状态由在线变为离线`,
      },
    },
    at,
  );
}

/**
 * Records alarms the system raised (a device, or most of a floor's or building's, went offline) or
 * cleared (they came back), one record per alarm or a summary like recordDeviceStatus. A repeat of
 * an active alarm is not a new event (its count says it); staff acknowledging or clearing is
 * recorded by the route's own call.
 */
export async function recordAlarmEvents(
  app: FastifyInstance,
  alarms: ChangeTally<RecordedAlarm<StatusDevice, string>>,
  event: 'raised' | 'cleared',
  at = Date.now(),
): Promise<void> {
  const raised = event === 'raised';
  const { total } = alarms;
  await recordSystemChange(
    app,
    'hotel/alarm',
    { ...systemRecord, operatorType: 'system', operatorName: SYSTEM_OPERATOR, action: raised ? '告警产生' : '告警清除', targetType: 'alarm', changes: '[]' },
    {
      items: alarms.items,
      total,
      record: ({ id, type, device, location }) => ({
        targetId: String(id),
        targetLabel: alarmLabel(type, device),
        msg: location !== undefined ? locationAlarmMessage(type, location, raised) : raised ? '设备离线，产生离线告警' : '设备恢复在线，离线告警自动清除',
      }),
      deviceOf: ({ device }) => device.id,
      summary: {
        targetLabel: `${total} 条离线告警`,
        msg: raised ? `${total} 台设备离线，产生离线告警` : `${total} 台设备恢复在线，离线告警自动清除`,
      },
    },
    at,
  );
}
