/**
 * Devices (hotel/device). Devices report in with their own key (issued at creation, shown once,
 * stored hashed), never with a staff token.
 */
import { Type } from '@sinclair/typebox';
import { BatchDone, batchState, field, pagedRequest, paged, versioned, IdBody, listExport, defaulted } from '../common';
import { download, post, upload, acts, actsOnEach, reads, scoped } from '../endpoint';
import { ImportQuery, ImportSummary } from '../list-import';

export const DEVICE_COMMAND_STATUSES = ['sent', 'acked', 'timed_out'] as const;

/** A remote command sent over MQTT (重启) and where it stands: sent, acked by the device, or timed out. */
export const DeviceCommandRecord = Type.Object({
  id: Type.Integer(),
  deviceId: Type.Integer(),
  command: Type.String(),
  status: Type.Union(DEVICE_COMMAND_STATUSES.map((status) => Type.Literal(status))),
  sentAt: Type.Integer(),
  ackedAt: field.nullable(Type.Integer()),
});

export const DeviceRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  sn: Type.String(),
  type: Type.String(),
  /** A room, or a floor/building for shared equipment; its path reads 主楼 / 8F / 0808. */
  locationId: field.nullable(Type.Integer()),
  locationPath: Type.String(),
  /** The device's hotel (sys/org). */
  orgId: field.nullable(Type.Integer()),
  /** The gateway (a device of type 网关) that carries its heartbeats; null: it reports for itself. */
  gatewayId: field.nullable(Type.Integer()),
  state: Type.Integer(),
  online: Type.Integer(),
  lastSeenAt: field.nullable(Type.Integer()),
  /** When it last came online / went offline (its status history: /hotel/device/status). */
  onlineSince: field.nullable(Type.Integer()),
  offlineSince: field.nullable(Type.Integer()),
  remark: Type.String(),
  version: Type.Integer(),
  createdAt: field.time(),
  updatedAt: field.time(),
  /** The device's latest remote command (on the list; null when it never got one). */
  lastCommand: Type.Optional(field.nullable(DeviceCommandRecord)),
});

export const DEVICE_SORT_KEYS = ['name', 'sn', 'type', 'state', 'online', 'lastSeenAt', 'createdAt'] as const;

export const DeviceInquire = pagedRequest(
  {
    name: field.note('设备名称', 32),
    sn: field.note('序列号', 64),
    type: field.note('设备类型', 40),
    /** A building, floor or room: its devices and those of everything under it. */
    locationId: field.id('位置'),
    state: field.flag('状态'),
    online: field.flag('在线'),
  },
  DEVICE_SORT_KEYS,
);

const deviceFields = {
  name: field.text('设备名称', 32),
  sn: field.text('序列号', 64, { pattern: '^[A-Za-z0-9_-]{4,64}$', patternHint: '只能包含字母、数字、_ 和 -，长度 4-64' }),
  type: field.text('设备类型', 40),
  locationId: defaulted(field.nullable(field.id('位置')), null),
  /** The device's hotel; null: its location's hotel, else the creator's unit (on edit: unchanged unless the location moves it). */
  orgId: defaulted(field.nullable(field.id('所属酒店')), null),
  /**
   * A device of type 网关 of the same hotel, itself without a gateway; null: the device reports for
   * itself. Left out: none on creation, unchanged on edit (the screens do not send it).
   */
  gatewayId: Type.Optional(field.nullable(field.id('所属网关'))),
  state: field.flag('状态'),
  remark: field.remark(),
};
export const DeviceCreation = Type.Object(deviceFields, { additionalProperties: false });
export const DeviceEdit = Type.Object({ id: field.id(), ...deviceFields, ...versioned }, { additionalProperties: false });

/** Creation and key reset answer the device key once; only its hash is kept. */
export const DeviceWithKey = Type.Object({ device: DeviceRecord, deviceKey: Type.String({ secret: true }) });

export const HeartbeatBody = Type.Object({ sn: field.text('序列号', 64) }, { additionalProperties: false });
export const HeartbeatData = Type.Object({ serverTime: Type.Integer() });

/** Children a gateway names in one message (MQTT or HTTP). */
export const GATEWAY_BATCH_MAX = 1000;
/** A gateway's batch: its own heartbeat and its children's, by serial number, with the gateway's key. */
export const GatewayHeartbeatBody = Type.Object(
  {
    sn: field.text('网关序列号', 64),
    devices: Type.Array(field.text('序列号', 64), { title: '子设备', maxItems: GATEWAY_BATCH_MAX }),
  },
  { additionalProperties: false },
);
export const GatewayHeartbeatData = Type.Object({
  serverTime: Type.Integer(),
  /** Children whose heartbeat counted. */
  accepted: Type.Integer(),
  /** Children named that are not this gateway's enabled children (ignored). */
  ignored: Type.Integer(),
});

export const deviceEndpoints = {
  '/hotel/device/inquire': scoped('device', post(DeviceInquire, paged(DeviceRecord), reads)),
  '/hotel/device/creation': scoped('device', post(DeviceCreation, DeviceWithKey, acts('device', 'data.device.id'))),
  '/hotel/device/edit': scoped('device', post(DeviceEdit, DeviceRecord, acts('device'))),
  '/hotel/device/batch/state': scoped('device', post(batchState('设备'), BatchDone, actsOnEach('device', 'body.ids'))),
  '/hotel/device/export': scoped('device', download(listExport(DeviceInquire))),
  '/hotel/device/import/template': download(null, reads),
  '/hotel/device/import': scoped('device', upload(ImportQuery, ImportSummary)),
  '/hotel/device/key/reset': scoped('device', post(IdBody, DeviceWithKey, acts('device'))),
  '/hotel/device/removal': scoped('device', post(IdBody, Type.Null(), acts('device'))),
  // Authenticated by the device's own key, not a staff scope.
  '/hotel/device/heartbeat': post(HeartbeatBody, HeartbeatData, { kind: 'none' }),
  '/hotel/device/gateway/heartbeat': post(GatewayHeartbeatBody, GatewayHeartbeatData, { kind: 'none' }),
  '/hotel/device/command/reboot': scoped('device', post(IdBody, DeviceCommandRecord, acts('device'))),
};
