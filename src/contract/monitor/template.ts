/**
 * Message templates (monitor/template, on the 通知渠道 screen): what an alarm's message says, per
 * channel type and message kind (raise, clear, escalation). A pair nobody edited uses the built-in
 * Chinese default; an edited one is a title and a text with placeholders `{{name}}` for the alarm's
 * fields (TEMPLATE_PLACEHOLDERS in constants.ts). The robots (DingTalk, WeCom, Feishu) render the text as Markdown.
 */
import { Type } from '@sinclair/typebox';
import { field, paged, pagedRequest } from '../common';
import { checks, post, reads } from '../endpoint';
import { CHANNEL_TYPES } from './channel';
import { TEMPLATE_BODY_MAX, TEMPLATE_KINDS, TEMPLATE_TITLE_MAX } from '../constants';

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
