/**
 * Notification rules (monitor/rule): which alarms (types, lowest severity, organisation unit subtree,
 * location subtree, causes only or symptoms too) go to which channels, with quiet hours (a daily window in Asia/Shanghai,
 * minutes of the day) and escalation steps (after N minutes unacknowledged, these channels).
 */
import { Type } from '@sinclair/typebox';
import { field, pagedRequest, paged, versioned, IdBody } from '../common';
import { acts, post, reads } from '../endpoint';
import { ALARM_SEVERITIES } from '../constants';

export const MINUTES_OF_DAY = 24 * 60;
export const ESCALATION_STEPS_MAX = 5;
/** A step waits at most a week. */
export const ESCALATION_MINUTES_MAX = 10_080;
export const RULE_CHANNELS_MAX = 20;

const channelIds = (title: string) => Type.Array(field.id('渠道'), { title, maxItems: RULE_CHANNELS_MAX, uniqueItems: true });
const minuteOfDay = (title: string) => field.nullable(field.int(title, 0, MINUTES_OF_DAY - 1));

export const EscalationStep = Type.Object(
  {
    afterMinutes: field.int('升级等待分钟数', 1, ESCALATION_MINUTES_MAX),
    channelIds: Type.Array(field.id('渠道'), { title: '升级渠道', minItems: 1, maxItems: RULE_CHANNELS_MAX, uniqueItems: true }),
  },
  { additionalProperties: false, title: '升级步骤' },
);

const ruleFields = {
  name: field.text('规则名称', 64),
  state: field.flag('状态'),
  /** Empty: every type. */
  alarmTypes: Type.Array(field.text('告警类型', 32), { title: '告警类型', maxItems: 20, uniqueItems: true }),
  minSeverity: Type.Union(
    ALARM_SEVERITIES.map((value) => Type.Literal(value)),
    { title: '最低级别' },
  ),
  /** The organisation unit (a hotel, a region...) and its subtree the device belongs to; null for every unit. */
  orgId: field.nullable(field.id('组织单位')),
  /** The location subtree; null for the whole hotel. */
  locationId: field.nullable(field.id('位置')),
  /** 1: symptoms too; 0: causes only. */
  symptoms: field.flag('包含衍生告警'),
  channelIds: channelIds('通知渠道'),
  quietStart: minuteOfDay('免打扰开始'),
  quietEnd: minuteOfDay('免打扰结束'),
  escalation: Type.Array(EscalationStep, { title: '升级步骤', maxItems: ESCALATION_STEPS_MAX }),
  remark: field.remark(),
};

export const RuleRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  state: Type.Integer(),
  alarmTypes: Type.Array(Type.String()),
  minSeverity: Type.String(),
  orgId: field.nullable(Type.Integer()),
  /** The unit's name; empty for every unit. */
  orgName: Type.String(),
  locationId: field.nullable(Type.Integer()),
  /** 主楼 / 8F; empty for the whole hotel. */
  locationPath: Type.String(),
  symptoms: Type.Integer(),
  channelIds: Type.Array(Type.Integer()),
  quietStart: field.nullable(Type.Integer()),
  quietEnd: field.nullable(Type.Integer()),
  escalation: Type.Array(Type.Object({ afterMinutes: Type.Integer(), channelIds: Type.Array(Type.Integer()) })),
  remark: Type.String(),
  version: Type.Integer(),
  createdAt: field.time(),
  updatedAt: field.time(),
});

export const RuleInquire = pagedRequest({ name: field.note('规则名称', 64), state: field.flag('状态') });
export const RuleCreation = Type.Object(ruleFields, { additionalProperties: false });
export const RuleEdit = Type.Object({ id: field.id(), ...ruleFields, ...versioned }, { additionalProperties: false });

export const ruleEndpoints = {
  '/monitor/rule/inquire': post(RuleInquire, paged(RuleRecord), reads),
  '/monitor/rule/creation': post(RuleCreation, RuleRecord, acts('rule')),
  '/monitor/rule/edit': post(RuleEdit, RuleRecord, acts('rule')),
  '/monitor/rule/removal': post(IdBody, Type.Null(), acts('rule')),
};
