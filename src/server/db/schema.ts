/**
 * Table types for Kysely. Columns are camelCase here and snake_case in the database (CamelCasePlugin).
 * Times are epoch milliseconds; flags are 0/1 integers, so both dialects store them alike.
 */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

interface Audited {
  createdAt: number;
  updatedAt: number;
  version: Generated<number>;
}

export interface RoleTable extends Audited {
  id: Generated<number>;
  name: string;
  remark: string;
  state: number;
  builtin: Generated<number>;
  /** Which rows the role's users see (contract DATA_SCOPES); `custom` adds the units in sys_role_org. */
  dataScope: Generated<string>;
}

/** A unit of the organisation tree: group -> region -> hotel -> department (pid null for the root). */
export interface OrgTable extends Audited {
  id: Generated<number>;
  pid: number | null;
  name: string;
  kind: string;
  code: string;
  state: number;
  sort: number;
  remark: string;
}

/** The units of a custom-scoped role (each with its subtree). */
export interface RoleOrgTable {
  roleId: number;
  orgId: number;
}

export interface UserTable extends Audited {
  id: Generated<number>;
  userName: string;
  nickName: string;
  passwordHash: string;
  state: number;
  roleId: number | null;
  /** The user's unit (sys_org). */
  orgId: number | null;
}

export interface MenuTable extends Audited {
  id: Generated<number>;
  pid: number | null;
  name: string;
  path: string;
  element: string;
  icon: string;
  sort: number;
  state: number;
  isAuth: number;
}

export interface ResourceTable extends Audited {
  id: Generated<number>;
  menuId: number;
  name: string;
  type: string;
  path: string;
  remark: string;
}

export interface RoleAuthTable {
  id: Generated<number>;
  roleId: number;
  type: string;
  resource: number;
}

export interface DictTable extends Audited {
  id: Generated<number>;
  code: string;
  label: string;
  value: string;
  sort: number;
  state: number;
  remark: string;
}

export interface DictResourceTable {
  id: Generated<number>;
  resourceId: number;
  dictId: number;
}

export interface SessionTable {
  id: Generated<number>;
  tokenHash: string;
  userId: number;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  revokedAt: number | null;
  ip: string;
  userAgent: Generated<string>;
}

export interface LoginFailureTable {
  key: string;
  failures: number;
  firstAt: number;
  lockedUntil: number;
}

export interface ScheduleTable extends Audited {
  id: Generated<number>;
  name: string;
  cron: string;
  task: string;
  params: string;
  state: number;
  remark: string;
  nextRunAt: number | null;
  lastRunAt: number | null;
  lastOutcome: string;
  lastMessage: string;
}

export interface ScheduleLogTable {
  id: Generated<number>;
  scheduleId: number;
  trigger: string;
  startedAt: number;
  endedAt: number | null;
  outcome: string;
  message: string;
  instance: string;
  /** The cron run's due time (the claim); null for a manual run. */
  plannedAt: number | null;
}

export interface DeviceTable extends Audited {
  id: Generated<number>;
  name: string;
  sn: string;
  type: string;
  /** A room, or a floor/building for shared equipment (hotel_location). */
  locationId: number | null;
  state: number;
  keyHash: string;
  remark: string;
  /** The device's hotel (sys_org). */
  orgId: number | null;
  /** The staff user who created it (the 仅本人 scope); null for rows from before scopes. */
  createdBy: Generated<number | null>;
  /** The gateway (a device of type `gateway`) that carries its heartbeats; null: it reports for itself. */
  gatewayId: Generated<number | null>;
  /** When it was deleted: kept for its history, left out of everything else. */
  deletedAt: Generated<number | null>;
}

/**
 * Live (not deleted) devices per unit, kept by triggers (migration 033); devices without a unit
 * count under org_id 0. A scope's whole device list is the sum over its units.
 */
export interface DeviceUnitCountTable {
  orgId: number;
  live: number;
}

/**
 * A device's presence, one row per device (created with it by a trigger, migration 017): the
 * columns heartbeats and the offline sweep write, kept out of the device's wide row.
 */
export interface DevicePresenceTable {
  /** The device's id. */
  id: number;
  online: Generated<number>;
  lastSeenAt: Generated<number | null>;
  /** When it last came online / went offline (hotel_device_transition holds every change). */
  onlineSince: Generated<number | null>;
  offlineSince: Generated<number | null>;
}

export type DeviceCommandStatus = 'sent' | 'acked' | 'timed_out';

/** A remote command sent to a device over MQTT (重启), and whether the device acknowledged it. */
export interface DeviceCommandTable {
  id: Generated<number>;
  deviceId: number;
  command: string;
  status: DeviceCommandStatus;
  sentAt: number;
  ackedAt: number | null;
  /** The staff user who sent it. */
  requestedBy: number;
}

/** One online/offline change of a device, written by services/device-status/transitions.ts. */
export interface DeviceTransitionTable {
  id: Generated<number>;
  deviceId: number;
  online: number;
  at: number;
  /** heartbeat | sweep | gateway | disconnect | unreachable (behind a gateway that is down). */
  cause: string;
}

/** The inactivity timeout of one device type (the device_type dictionary value). */
export interface DeviceTypeTimeoutTable {
  type: string;
  minutes: number;
  updatedAt: number;
}

/** An alarm on a device; active while cleared_at is null (at most one per device and type). */
export interface AlarmTable {
  id: Generated<number>;
  deviceId: number;
  type: string;
  severity: string;
  message: string;
  startedAt: number;
  lastAt: number;
  count: Generated<number>;
  acknowledgedBy: string | null;
  acknowledgedAt: number | null;
  acknowledgeNote: Generated<string>;
  clearedBy: string | null;
  clearedAt: number | null;
  /** The alarm this one is a symptom of (its gateway's offline alarm, or its floor's or building's); null for a cause. */
  causeId: Generated<number | null>;
  /** The floor or building a location alarm (楼层断连 / 楼栋断连) is about; null for a device's own alarm. */
  locationId: Generated<number | null>;
}

export interface AdvancedTable extends Audited {
  id: Generated<number>;
  name: string;
  endpointUrl: string;
  appKey: string;
  appSecret: string;
  state: number;
  remark: string;
  initialisedAt: number | null;
  /** The hotel the configuration belongs to. */
  orgId: number | null;
  createdBy: number | null;
}

/** The head and the anchor of each audit chain ('operation', 'login'); see server/lib/audit-chain.ts. */
export interface AuditChainTable {
  chain: string;
  headId: number;
  headHash: string;
  headAt: number;
  anchorId: number;
  anchorHash: string;
  /** The first record whose hash covers its units (records before it were written without them). */
  unitsFromId: Generated<number>;
}

export interface OperationLogTable {
  id: number;
  at: number;
  operatorType: string;
  operatorId: number | null;
  operatorName: string;
  module: string;
  action: string;
  path: string;
  targetType: string;
  targetId: string;
  targetLabel: string;
  outcome: string;
  code: number;
  msg: string;
  ip: string;
  durationMs: number;
  /** JSON text, redacted. */
  params: string;
  /** JSON text: [{ field, title, before, after }]. */
  changes: string;
  /** The actor's unit when the call was made; null for an anonymous caller. */
  actorOrgId: number | null;
  /** The target's unit (its hotel, the user's unit, the unit itself); null for configuration and older records. */
  targetOrgId: number | null;
  prevHash: string;
  hash: string;
}

export interface LoginLogTable {
  id: number;
  at: number;
  event: string;
  outcome: string;
  userId: number | null;
  userName: string;
  ip: string;
  browser: string;
  os: string;
  userAgent: string;
  msg: string;
  /** The user's unit when the record was written; null for an unknown user name. */
  orgId: number | null;
  prevHash: string;
  hash: string;
}

export type LocationKind = 'building' | 'floor' | 'room';

/** Building -> floor -> room: parentId 0 for a building. */
export interface LocationTable extends Audited {
  id: Generated<number>;
  parentId: number;
  kind: LocationKind;
  name: string;
  sort: number;
  /** A building's hotel (sys_org); null on floors and rooms, which follow their building. */
  orgId: Generated<number | null>;
  createdBy: Generated<number | null>;
}

/** How many devices were online at a moment (task device.onlineSample; the panel's 24 h curve). */
export interface DeviceOnlineSampleTable {
  id: Generated<number>;
  sampledAt: number;
  online: number;
  total: number;
}

/** A notification channel (monitor/channel): a robot, a webhook or an SMTP server. */
export interface NotifyChannelTable extends Audited {
  id: Generated<number>;
  name: string;
  /** dingtalk | wecom | feishu | webhook | email */
  type: string;
  /** JSON (services/notification/channel-config.ts), credentials included: never answered as it is. */
  config: string;
  state: number;
  remark: string;
  /** unknown | ok | unhealthy */
  health: Generated<string>;
  healthReason: Generated<string>;
  healthAt: number | null;
}

/** A channel's shared rate-limit state (services/notification/rate-limit.ts). */
export interface NotifyChannelRateTable {
  channelId: number;
  /** JSON array of the epoch ms of its latest sends. */
  recent: Generated<string>;
  /** Sends wait until then after the vendor's own rate-limit answer. */
  pausedUntil: Generated<number>;
}

/** A message of the outbox (services/notification/outbox.ts). */
export interface NotifyMessageTable {
  id: Generated<number>;
  channelId: number;
  alarmId: number | null;
  /** raise | clear | escalation | digest | test */
  kind: string;
  title: string;
  body: string;
  /** The console path it links to (e.g. /hotel/alarm?id=1); '' for none. */
  link: Generated<string>;
  /** JSON of its structured fields, '' for none. */
  payload: Generated<string>;
  /** queued | sending | sent | digested | failed */
  state: string;
  attempts: Generated<number>;
  /** queued: when it is tried next; sending: when its claim lapses. */
  nextAttemptAt: number;
  claimedBy: string | null;
  vendorStatus: number | null;
  vendorAnswer: Generated<string>;
  lastError: Generated<string>;
  createdAt: number;
  sentAt: number | null;
  /** The digest it was merged into (state digested). */
  digestId: number | null;
}

/** An event of the live stream's outbox (services/events). */
export interface EventOutboxTable {
  id: Generated<number>;
  /** device-status | alarm-raised | alarm-acknowledged | alarm-cleared | command-status | session-ended */
  kind: string;
  /** JSON of the event's fields. */
  payload: string;
  /** The API path of the resource a receiver's role must hold; null for every signed-in receiver. */
  resource: string | null;
  /** Only this session's stream receives it; null for every permitted receiver. */
  sessionId: number | null;
  /** The organisation unit of its data, for the data-scope filter; null when unscoped. */
  orgId: number | null;
  createdAt: number;
}

/** A single-use ticket that opens the live stream (services/events/tickets.ts). */
export interface EventTicketTable {
  ticketHash: string;
  sessionId: number;
  expiresAt: number;
  usedAt: number | null;
}

/** One row per built-in a database has received (services/builtins/sync.ts). */
export interface BuiltinTable {
  key: string;
  createdAt: number;
}

/** Which alarms go to which channels (monitor/rule; services/notification/alarm-events.ts). */
export interface NotifyRuleTable extends Audited {
  id: Generated<number>;
  name: string;
  state: number;
  /** JSON array of alarm types; [] for every type. */
  alarmTypes: string;
  /** critical | major | minor | warning: this one and the more severe. */
  minSeverity: string;
  /** The location subtree the alarm's device is in; null for the whole hotel. */
  locationId: number | null;
  /** The organisation unit (with its subtree) the alarm's device belongs to; null for every unit. */
  orgId: Generated<number | null>;
  /** 1: symptoms too; 0: causes only. */
  symptoms: number;
  /** JSON array of channel ids. */
  channelIds: string;
  /** Minutes of the day (Asia/Shanghai); null for none. */
  quietStart: number | null;
  quietEnd: number | null;
  /** JSON array of { afterMinutes, channelIds }. */
  escalation: string;
  remark: string;
}

/** A location subtree silenced for a period (monitor/maintenance). */
export interface NotifyMaintenanceTable extends Audited {
  id: Generated<number>;
  name: string;
  /** null: the whole hotel. */
  locationId: number | null;
  startsAt: number;
  endsAt: number;
  state: number;
  remark: string;
}

/** An escalation step waiting for its time; the worker takes it when due (or drops it: acknowledged, cleared). */
export interface NotifyEscalationTable {
  id: Generated<number>;
  alarmId: number;
  ruleId: number;
  step: number;
  dueAt: number;
}

/** An edited message template; a channel type and kind without a row use the built-in default. */
export interface NotifyTemplateTable extends Audited {
  id: Generated<number>;
  channelType: string;
  /** raise | clear | escalation */
  kind: string;
  title: string;
  body: string;
}

export interface Database {
  sysRole: RoleTable;
  sysOrg: OrgTable;
  sysRoleOrg: RoleOrgTable;
  sysUser: UserTable;
  sysMenu: MenuTable;
  sysResource: ResourceTable;
  sysRoleAuth: RoleAuthTable;
  sysDict: DictTable;
  sysDictResource: DictResourceTable;
  sysSession: SessionTable;
  sysLoginFailure: LoginFailureTable;
  sysSchedule: ScheduleTable;
  sysScheduleLog: ScheduleLogTable;
  hotelDevice: DeviceTable;
  hotelDeviceCommand: DeviceCommandTable;
  hotelAdvanced: AdvancedTable;
  hotelDeviceOnlineSample: DeviceOnlineSampleTable;
  hotelDevicePresence: DevicePresenceTable;
  hotelDeviceUnitCount: DeviceUnitCountTable;
  hotelLocation: LocationTable;
  hotelDeviceTransition: DeviceTransitionTable;
  hotelDeviceTypeTimeout: DeviceTypeTimeoutTable;
  hotelAlarm: AlarmTable;
  sysBuiltin: BuiltinTable;
  sysAuditChain: AuditChainTable;
  sysOperationLog: OperationLogTable;
  sysLoginLog: LoginLogTable;
  notifyChannel: NotifyChannelTable;
  notifyChannelRate: NotifyChannelRateTable;
  notifyMessage: NotifyMessageTable;
  notifyRule: NotifyRuleTable;
  notifyMaintenance: NotifyMaintenanceTable;
  notifyEscalation: NotifyEscalationTable;
  notifyTemplate: NotifyTemplateTable;
  eventOutbox: EventOutboxTable;
  eventTicket: EventTicketTable;
}

export type Row<T extends keyof Database> = Selectable<Database[T]>;
export type NewRow<T extends keyof Database> = Insertable<Database[T]>;
export type RowPatch<T extends keyof Database> = Updateable<Database[T]>;
