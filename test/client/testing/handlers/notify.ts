/**
 * msw fixtures for 通知渠道 and 通知记录: a DingTalk robot and an e-mail channel with masked
 * credentials, a sent message and a dead letter, 测试发送's answer and 重发.
 */
import { http } from 'msw';

import type { DataOf } from '../../../../src/contract';
import { api, ok } from '../handlers';
import type { RequestLog } from '../request-log';
import { crudHandlers } from './list-crud';
import { pickerHandlers } from './pickers';
import { dictEntry, paged, sysMenu } from './sys-common';

type AuthorityMenu = DataOf<'GET /sys/menu/authority'>[number];
type ChannelRow = DataOf<'/monitor/channel/inquire'>['records'][number];
type MessageRow = DataOf<'/monitor/message/inquire'>['records'][number];

export const NOTIFY_MENU_ID = { area: 30, channel: 34, message: 35 } as const;

export const notifyMenu: AuthorityMenu[] = [
  ...sysMenu,
  { id: NOTIFY_MENU_ID.area, pid: null, name: '系统监控', path: '/monitor', element: '', icon: 'SafetyOutlined', sort: 3, state: 1, isAuth: 1 },
  {
    id: NOTIFY_MENU_ID.channel,
    pid: NOTIFY_MENU_ID.area,
    name: '通知渠道',
    path: '/monitor/channel',
    element: 'monitor/channel',
    icon: 'ApiOutlined',
    sort: 4,
    state: 1,
    isAuth: 1,
  },
  {
    id: NOTIFY_MENU_ID.message,
    pid: NOTIFY_MENU_ID.area,
    name: '通知记录',
    path: '/monitor/message',
    element: 'monitor/message',
    icon: 'BookOutlined',
    sort: 5,
    state: 1,
    isAuth: 1,
  },
];

const channelTypeEntries = [
  dictEntry('channelType', 'dingtalk', '钉钉机器人', 1),
  dictEntry('channelType', 'wecom', '企业微信机器人', 2),
  dictEntry('channelType', 'feishu', '飞书机器人', 3),
  dictEntry('channelType', 'webhook', 'Webhook', 4),
  dictEntry('channelType', 'email', '电子邮件', 5),
];

const channelDict = [
  ...channelTypeEntries,
  dictEntry('state', '1', '启用', 1),
  dictEntry('state', '0', '禁用', 2),
  dictEntry('health', 'unknown', '未知', 1),
  dictEntry('health', 'ok', '正常', 2),
  dictEntry('health', 'unhealthy', '异常', 3),
];

const messageDict = [
  ...channelTypeEntries,
  dictEntry('kind', 'raise', '告警', 1),
  dictEntry('kind', 'clear', '恢复', 2),
  dictEntry('kind', 'test', '测试', 5),
  dictEntry('state', 'queued', '排队中', 1),
  dictEntry('state', 'sent', '已发送', 3),
  dictEntry('state', 'digested', '已合并', 4),
  dictEntry('state', 'failed', '发送失败', 5),
];

const AT = Date.UTC(2026, 2, 1, 1, 30, 0);

export const dingtalkChannel: ChannelRow = {
  id: 3,
  name: '工程部钉钉群',
  type: 'dingtalk',
  config: { urlMasked: 'https://oapi.dingtalk.com/robot/send?access_token=******c9d0', secretMasked: '******e1f2', maxAttempts: 5 },
  state: 1,
  remark: '',
  health: 'unhealthy',
  healthReason: '钉钉拒绝：310000 sign not match',
  healthAt: AT,
  failedCount: 2,
  version: 4,
  createdAt: AT,
  updatedAt: AT,
};

export const emailChannel: ChannelRow = {
  id: 4,
  name: '经理邮件',
  type: 'email',
  config: {
    host: 'smtp.example.com',
    port: 465,
    security: 'tls',
    user: 'alarm',
    passwordMasked: '******',
    from: 'alarm@example.com',
    to: ['gm@example.com', 'eng@example.com'],
    ratePerMinute: 0,
    maxAttempts: 3,
  },
  state: 1,
  remark: '',
  health: 'ok',
  healthReason: '',
  healthAt: AT,
  failedCount: 0,
  version: 1,
  createdAt: AT,
  updatedAt: AT,
};

export const testAnswer: DataOf<'/monitor/channel/test'> = {
  messageId: 77,
  verdict: 'refused',
  status: 200,
  answer: '{"errcode":310000,"errmsg":"sign not match"}',
  reason: '签名不匹配',
};

const channels = [dingtalkChannel, emailChannel];

export function channelHandlers(log: RequestLog) {
  return [
    http.get(api('/sys/menu/authority'), () => ok(notifyMenu)),
    http.post(api('/sys/dict/resource/inquire'), async ({ request }) => {
      const { menuId } = (await request.json()) as { menuId: number };
      return ok(menuId === NOTIFY_MENU_ID.channel ? channelDict : menuId === NOTIFY_MENU_ID.message ? messageDict : []);
    }),
    ...crudHandlers(log, { base: '/monitor/channel', records: channels, created: dingtalkChannel, edited: dingtalkChannel }),
    // Each screen's 可选渠道: the listed channels' id, name, type and state.
    ...pickerHandlers('channel', async ({ request }) => {
      await log.record(request);
      return ok(channels.map(({ id, name, type, state }) => ({ id, name, type, state })));
    }),
    http.post(api('/monitor/channel/test'), async ({ request }) => {
      await log.record(request);
      return ok(testAnswer, '渠道拒绝了测试消息：签名不匹配');
    }),
  ];
}

export const sentMessage: MessageRow = {
  id: 901,
  channelId: 4,
  channelName: '经理邮件',
  channelType: 'email',
  alarmId: 12,
  kind: 'raise',
  title: '设备离线：0808 门锁',
  body: '**设备**：0808 门锁（LOCK-0808）',
  state: 'sent',
  attempts: 1,
  nextAttemptAt: AT,
  vendorStatus: 250,
  vendorAnswer: '250 OK queued',
  lastError: '',
  createdAt: AT,
  sentAt: AT + 1000,
  digestId: null,
  digestCount: 0,
};

export const deadLetter: MessageRow = {
  ...sentMessage,
  id: 902,
  channelId: 3,
  channelName: '工程部钉钉群',
  channelType: 'dingtalk',
  state: 'failed',
  attempts: 5,
  vendorStatus: 503,
  vendorAnswer: 'Service Unavailable',
  lastError: '厂商暂时不可用（HTTP 503），已尝试 5 次',
  sentAt: null,
};

export function messageHandlers(log: RequestLog) {
  return [
    ...channelHandlers(log),
    http.post(api('/monitor/message/inquire'), async ({ request }) => {
      const body = (await log.record(request)) as { size: number; current: number };
      return ok(paged([deadLetter, sentMessage], body.current, body.size));
    }),
    http.post(api('/monitor/message/resend'), async ({ request }) => {
      await log.record(request);
      return ok({ count: 1 }, '已重新排队 1 条消息');
    }),
  ];
}

type RuleRow = DataOf<'/monitor/rule/inquire'>['records'][number];
type MaintenanceRow = DataOf<'/monitor/maintenance/inquire'>['records'][number];

export const RULE_MENU_ID = 36;
export const MAINTENANCE_MENU_ID = 37;
/** 组织管理: its grant lets the rule form read the unit tree. */
const ORG_MENU_ID = 38;

export const ruleMenu: AuthorityMenu[] = [
  ...notifyMenu,
  { id: RULE_MENU_ID, pid: NOTIFY_MENU_ID.area, name: '通知规则', path: '/monitor/rule', element: 'monitor/rule', icon: 'AlertOutlined', sort: 6, state: 1, isAuth: 1 },
  {
    id: MAINTENANCE_MENU_ID,
    pid: NOTIFY_MENU_ID.area,
    name: '维护窗口',
    path: '/monitor/maintenance',
    element: 'monitor/maintenance',
    icon: 'ToolOutlined',
    sort: 7,
    state: 1,
    isAuth: 1,
  },
  { id: ORG_MENU_ID, pid: 1, name: '组织管理', path: '/sys/org', element: 'sys/org', icon: 'ApartmentOutlined', sort: 8, state: 1, isAuth: 1 },
];

/** The caller's units: a group, a region under it, a hotel under that. */
export const ruleOrgUnits: DataOf<'GET /sys/org/tree'> = [
  { id: 1, pid: null, name: '集团', kind: 'group', code: 'G', state: 1, sort: 0, remark: '', createdAt: AT, updatedAt: AT, version: 0 },
  { id: 11, pid: 1, name: '华东区', kind: 'region', code: 'EAST', state: 1, sort: 0, remark: '', createdAt: AT, updatedAt: AT, version: 0 },
  { id: 12, pid: 11, name: '上海浦东店', kind: 'hotel', code: 'SH01', state: 1, sort: 0, remark: '', createdAt: AT, updatedAt: AT, version: 0 },
];

export const offlineRule: RuleRow = {
  id: 8,
  name: '离线告警通知',
  state: 1,
  alarmTypes: ['offline'],
  minSeverity: 'major',
  orgId: 12,
  orgName: '上海浦东店',
  locationId: 5,
  locationPath: '主楼 / 8F',
  symptoms: 1,
  channelIds: [3],
  quietStart: 22 * 60,
  quietEnd: 7 * 60,
  escalation: [{ afterMinutes: 15, channelIds: [4] }],
  remark: '',
  version: 2,
  createdAt: AT,
  updatedAt: AT,
};

export const renovation: MaintenanceRow = {
  id: 9,
  name: '8F 装修',
  locationId: 5,
  locationPath: '主楼 / 8F',
  startsAt: AT,
  endsAt: AT + 2 * 3_600_000,
  state: 1,
  remark: '',
  version: 0,
  createdAt: AT,
  updatedAt: AT,
};

const severityEntries = [
  dictEntry('minSeverity', 'critical', '严重', 1),
  dictEntry('minSeverity', 'major', '重要', 2),
  dictEntry('minSeverity', 'minor', '次要', 3),
  dictEntry('minSeverity', 'warning', '警告', 4),
];

export function ruleHandlers(log: RequestLog) {
  // The first handler matching a request answers it: these come before the channel screen's.
  return [
    http.get(api('/sys/menu/authority'), () => ok(ruleMenu)),
    http.post(api('/sys/dict/resource/inquire'), async ({ request }) => {
      const { menuId } = (await request.json()) as { menuId: number };
      return ok(
        menuId === RULE_MENU_ID
          ? [...severityEntries, ...channelDict.filter((entry) => entry.field === 'state')]
          : menuId === MAINTENANCE_MENU_ID
            ? channelDict.filter((entry) => entry.field === 'state')
            : [],
      );
    }),
    ...pickerHandlers('location', async ({ request }) => {
      await log.record(request);
      return ok([]);
    }),
    ...pickerHandlers('org', async ({ request }) => {
      await log.record(request);
      return ok(ruleOrgUnits);
    }),
    ...crudHandlers(log, { base: '/monitor/rule', records: [offlineRule], created: offlineRule, edited: offlineRule }),
    ...crudHandlers(log, { base: '/monitor/maintenance', records: [renovation], created: renovation, edited: renovation }),
    http.post(api('/monitor/rule/removal'), async ({ request }) => {
      await log.record(request);
      return ok(null, '删除成功');
    }),
    ...channelHandlers(log),
  ];
}
