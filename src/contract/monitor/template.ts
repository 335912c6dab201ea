/**
 * Message templates (monitor/template, on the 通知渠道 screen): what an alarm's message says, per
 * channel type and message kind (raise, clear, escalation). A pair nobody edited uses the built-in
 * Chinese default; an edited one is a title and a text with placeholders `{{name}}` for the alarm's
 * fields (TEMPLATE_PLACEHOLDERS). The robots (DingTalk, WeCom, Feishu) render the text as Markdown.
 */
import { Type } from '@sinclair/typebox';
import { field, paged, pagedRequest } from '../common';
import { checks, post, reads } from '../endpoint';
import { CHANNEL_TYPES } from './channel';

export const TEMPLATE_KINDS = ['raise', 'clear', 'escalation'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];
export const TEMPLATE_KIND_LABELS: Readonly<Record<TemplateKind, string>> = { raise: '告警', clear: '恢复', escalation: '升级' };

/** The placeholders a template may use, and what each stands for. */
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

const literals = <T extends string>(values: readonly T[], title: string) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    { title },
  );
const ChannelTypeField = literals(CHANNEL_TYPES, '渠道类型');
const KindField = literals(TEMPLATE_KINDS, '消息类型');

const templateText = {
  title: field.text('标题模板', TEMPLATE_TITLE_MAX),
  body: Type.String({ title: '正文模板', minLength: 1, maxLength: TEMPLATE_BODY_MAX, textRule: 'multiline' }),
};

export const TemplateRecord = Type.Object({
  /** Stable per pair (channel type, kind): the list's row key. */
  id: Type.Integer(),
  channelType: Type.String(),
  kind: Type.String(),
  title: Type.String(),
  body: Type.String(),
  /** 1: edited; 0: the built-in default. */
  custom: Type.Integer(),
  /** 0 for a default; an edit sends it back to detect a stale write. */
  version: Type.Integer(),
  updatedAt: field.nullable(field.time()),
});

export const TemplateInquire = pagedRequest({ channelType: ChannelTypeField, kind: KindField });
export const TemplateKey = Type.Object({ channelType: ChannelTypeField, kind: KindField }, { additionalProperties: false });
export const TemplateEdit = Type.Object(
  { channelType: ChannelTypeField, kind: KindField, ...templateText, version: Type.Integer({ title: '版本', minimum: 0, maximum: 2_147_483_647 }) },
  { additionalProperties: false },
);
export const TemplatePreview = Type.Object({ channelType: ChannelTypeField, kind: KindField, ...templateText }, { additionalProperties: false });
export const TemplateRendered = Type.Object({ title: Type.String(), body: Type.String() });

export const templateEndpoints = {
  '/monitor/template/inquire': post(TemplateInquire, paged(TemplateRecord), reads),
  '/monitor/template/edit': post(TemplateEdit, TemplateRecord),
  /** Back to the built-in default. */
  '/monitor/template/reset': post(TemplateKey, TemplateRecord),
  /** The template filled with a sample alarm, as the form shows it before saving. */
  '/monitor/template/preview': post(TemplatePreview, TemplateRendered, checks),
};
