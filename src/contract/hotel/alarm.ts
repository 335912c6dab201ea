/**
 * Alarms (hotel/alarm), ThingsBoard-like: raised by the system (a device going offline raises an
 * offline alarm; the types and their labels are ALARM_TYPE in constants.ts), one active alarm per device and type whose count and last time grow while the
 * condition repeats, acknowledged and cleared by staff or cleared by the system when the condition
 * ends (the device is back online). Also the per-device-type inactivity timeouts the offline sweep
 * uses, and one device's status history (its online/offline changes and recent alarms).
 */
import { Type } from '@sinclair/typebox';
import { BatchDone, batchIds, field, paged, pagedRequest, pageFields } from '../common';
import { acts, actsOnEach, post, postEmpty, reads, scoped } from '../endpoint';
import { ALARM_SEVERITIES } from '../constants';

export const AlarmRecord = Type.Object({
  id: Type.Integer(),
  deviceId: Type.Integer(),
  deviceName: Type.String(),
  deviceSn: Type.String(),
  type: Type.String(),
  severity: Type.String(),
  message: Type.String(),
  startedAt: field.time(),
  lastAt: field.time(),
  count: Type.Integer(),
  acknowledgedBy: field.nullable(Type.String()),
  acknowledgedAt: field.nullable(Type.Integer()),
  /** What the person who acknowledged it wrote (may be empty). */
  acknowledgeNote: Type.String(),
  clearedBy: field.nullable(Type.String()),
  clearedAt: field.nullable(Type.Integer()),
  /** The alarm this one is a symptom of (its gateway's offline alarm, or its floor's or building's); null for a cause. */
  causeId: field.nullable(Type.Integer()),
  /**
   * A location alarm's subject (楼层断连 / 楼栋断连), the floor or building, and its path (主楼 / 8F);
   * null for a device's own alarm. Its device is a representative device of that location.
   */
  locationId: field.nullable(Type.Integer()),
  locationPath: field.nullable(Type.String()),
  /** A cause's symptoms, folded under it in the list (listed with the `causeId` filter); 0 for a symptom. */
  symptomCount: Type.Integer(),
});

export const ALARM_SORT_KEYS = ['startedAt', 'lastAt', 'count', 'severity'] as const;

export const AlarmInquire = pagedRequest(
  {
    /** One alarm: what a notification's console link (`/hotel/alarm?id=`) opens. */
    id: field.id('告警编号'),
    /** active: not cleared; cleared: cleared (by staff or the system). */
    status: Type.Union([Type.Literal('active'), Type.Literal('cleared')], { title: '状态' }),
    acknowledged: field.flag('已确认'),
    severity: Type.Union(
      ALARM_SEVERITIES.map((severity) => Type.Literal(severity)),
      { title: '级别' },
    ),
    /** The device's name or serial number contains this. */
    device: field.note('设备', 64),
    startAt: field.instant('开始时间'),
    endAt: field.instant('结束时间'),
    /** The symptoms of this cause; without it the list answers causes only (and counts only them). */
    causeId: field.id('根因告警'),
  },
  ALARM_SORT_KEYS,
);

export const AlarmIds = Type.Object({ ids: Type.Array(field.id(), { title: '告警', minItems: 1, maxItems: 500 }) }, { additionalProperties: false });
export const AlarmChanged = Type.Object({ count: Type.Integer() });
const acknowledgeNote = field.remark('确认备注', 200);
export const AlarmAcknowledge = Type.Object({ ids: AlarmIds.properties.ids, note: acknowledgeNote }, { additionalProperties: false });
/** Every alarm named must be open (neither acknowledged nor cleared), or nothing is acknowledged. */
export const AlarmBatchAcknowledge = Type.Object({ ids: batchIds('告警'), note: acknowledgeNote }, { additionalProperties: false });

export const DeviceTypeTimeout = Type.Object({
  /** The device_type dictionary value and its label. */
  type: Type.String(),
  label: Type.String(),
  /** Null: the offline sweep's own minutes apply. */
  minutes: field.nullable(Type.Integer()),
});
export const TIMEOUT_MINUTES_MAX = 10_080;
export const TimeoutList = Type.Object({
  /** The minutes of the enabled offline-sweep schedule (what a type without its own timeout gets), if any. */
  defaultMinutes: field.nullable(Type.Integer()),
  types: Type.Array(DeviceTypeTimeout),
});
export const TimeoutEdit = Type.Object(
  {
    type: field.text('设备类型', 40),
    minutes: field.nullable(field.int('超时分钟数', 1, TIMEOUT_MINUTES_MAX)),
  },
  { additionalProperties: false },
);

export const TransitionRecord = Type.Object({
  id: Type.Integer(),
  online: Type.Integer(),
  at: field.time(),
  cause: Type.String(),
});

export const DeviceStatusRequest = Type.Object(
  {
    id: field.id('设备'),
    ...pageFields(10),
  },
  { additionalProperties: false },
);
export const RECENT_ALARMS = 10;
export const DeviceStatusData = Type.Object({
  online: Type.Integer(),
  onlineSince: field.nullable(Type.Integer()),
  offlineSince: field.nullable(Type.Integer()),
  lastSeenAt: field.nullable(Type.Integer()),
  /** The device's online/offline changes, newest first. */
  transitions: paged(TransitionRecord),
  /** Its latest alarms (at most RECENT_ALARMS), newest first. */
  alarms: Type.Array(AlarmRecord),
});

/** The operation log names the first alarm of a call (with its before/after); params hold all ids. */
const FIRST_ALARM = 'body.ids.0';

export const alarmEndpoints = {
  '/hotel/alarm/inquire': scoped('device', post(AlarmInquire, paged(AlarmRecord), reads)),
  '/hotel/alarm/acknowledge': scoped('device', post(AlarmAcknowledge, AlarmChanged, acts('alarm', FIRST_ALARM))),
  '/hotel/alarm/batch/acknowledge': scoped('device', post(AlarmBatchAcknowledge, BatchDone, actsOnEach('alarm', 'body.ids'))),
  '/hotel/alarm/clear': scoped('device', post(AlarmIds, AlarmChanged, acts('alarm', FIRST_ALARM))),
  '/hotel/alarm/timeout/inquire': postEmpty(TimeoutList, reads),
  '/hotel/alarm/timeout/edit': post(TimeoutEdit, DeviceTypeTimeout),
  '/hotel/device/status': scoped('device', post(DeviceStatusRequest, DeviceStatusData, reads)),
};
