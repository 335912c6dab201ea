/**
 * Plain values shared by client and server. This file imports only envelope.ts, which imports
 * nothing, so the browser bundle can use both without pulling in the schema library.
 */

export * from './envelope';

export interface Paged<T> {
  records: T[];
  current: number;
  size: number;
  total: number;
  /** True when the list was not counted to its end: `total` is then a lower bound ("10,000+"). */
  totalIsLowerBound: boolean;
}

/** A list's sort request: one of the list's enumerated sort keys and a direction (antd's words). */
export const SORT_ORDERS = ['ascend', 'descend'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export interface SortRequest<F extends string = string> {
  field: F;
  order: SortOrder;
}

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
export const ROLE_USER_PAGE_SIZE = 10;
/** Rows one batch action names at most (a page of the largest size, several times over). */
export const BATCH_MAX = 500;

export const USER_NAME_PATTERN = '^[A-Za-z0-9_.@-]{3,32}$';
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;

export const RESOURCE_CATEGORIES = ['api', 'field', 'button'] as const;
export type ResourceCategory = (typeof RESOURCE_CATEGORIES)[number];

export const DEVICE_KEY_HEADER = 'x-device-key';
export const TIME_ZONE = 'Asia/Shanghai';

/** The spreadsheet type of exports and imports. */
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Largest import file; the JSON body limit (256 KB) does not apply to it. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** Data rows per import file: each new user costs a password hash, a device only a key. */
export const USER_IMPORT_MAX_ROWS = 500;
export const DEVICE_IMPORT_MAX_ROWS = 5000;

/** The kinds of organisation unit, top down (a hotel's buildings and devices hang under the hotel). */
export const ORG_KINDS = ['group', 'region', 'hotel', 'department'] as const;
export type OrgKind = (typeof ORG_KINDS)[number];
export const ORG_KIND_LABELS: Record<OrgKind, string> = { group: '集团', region: '区域', hotel: '酒店', department: '部门' };

/**
 * A role's data scope, widest first: every row; the user's unit and its subtree; the user's unit
 * only; the chosen units (each with its subtree); the user's own record and the rows they created.
 */
export const DATA_SCOPES = ['all', 'orgAndBelow', 'org', 'custom', 'self'] as const;
export type DataScopeKind = (typeof DATA_SCOPES)[number];
export const DATA_SCOPE_LABELS: Record<DataScopeKind, string> = { all: '全部数据', orgAndBelow: '本单位及下级', org: '仅本单位', custom: '指定单位', self: '仅本人' };

/**
 * The alarm types the system raises (hotel/alarm): a device's own offline alarm, and a floor's or a
 * building's mass outage (a location alarm); with their labels, in the order pickers offer them.
 */
export const ALARM_TYPE = { offline: 'offline', floorOffline: 'floor_offline', buildingOffline: 'building_offline' } as const;
export type AlarmType = (typeof ALARM_TYPE)[keyof typeof ALARM_TYPE];
export const ALARM_TYPE_LABELS: Readonly<Record<AlarmType, string>> = { offline: '设备离线', floor_offline: '楼层断连', building_offline: '楼栋断连' };
export const isAlarmType = (type: string): type is AlarmType => Object.hasOwn(ALARM_TYPE_LABELS, type);
/** A lookup answering a value's label, or the value itself when the table has none (an older row's value, say). */
const labelOr =
  (labels: Readonly<Record<string, string>>) =>
  (value: string): string =>
    Object.hasOwn(labels, value) ? labels[value] : value;

/** A type's label, or the type itself when it is none of these. */
export const alarmTypeLabel = labelOr(ALARM_TYPE_LABELS);

/** Alarm severities, more severe first (a rule's lowest severity lets through itself and those before it), with their labels. */
export const ALARM_SEVERITIES = ['critical', 'major', 'minor', 'warning'] as const;
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];
export const ALARM_SEVERITY_LABELS: Readonly<Record<AlarmSeverity, string>> = { critical: '严重', major: '重要', minor: '次要', warning: '警告' };
/** A severity's label, or the severity itself when it is none of these. */
export const alarmSeverityLabel = labelOr(ALARM_SEVERITY_LABELS);

/** Message templates (monitor/template): the kinds of message a template is for, and the placeholders a template may use. */
export const TEMPLATE_KINDS = ['raise', 'clear', 'escalation'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];
export const TEMPLATE_KIND_LABELS: Readonly<Record<TemplateKind, string>> = { raise: '告警', clear: '恢复', escalation: '升级' };

/** The placeholders a template may use (`{{deviceName}}`), and what each stands for. */
export const TEMPLATE_PLACEHOLDERS = {
  deviceName: '设备名称',
  deviceSn: '设备序列号',
  location: '位置（楼 / 层 / 房间，无位置时为房间号）',
  severity: '级别（严重、重要、次要、警告）',
  alarmType: '告警类型（如 设备离线）',
  message: '告警信息',
  time: '告警开始时间（北京时间）',
  clearedTime: '恢复时间（仅恢复消息）',
  minutes: '升级等待分钟数（仅升级消息）',
  alarmId: '告警编号',
  link: '控制台中该告警的链接（未配置 NOTIFY_CONSOLE_URL 时为空）',
} as const;
export type TemplatePlaceholder = keyof typeof TEMPLATE_PLACEHOLDERS;

export const TEMPLATE_TITLE_MAX = 200;
export const TEMPLATE_BODY_MAX = 4000;

/** How many next run times a cron preview answers (the schedule dialog keeps room for that many lines). */
export const CRON_PREVIEW_RUNS = 5;
