/**
 * What an alarm's message says, per channel type and kind: a title and a text, templates with the
 * alarm's fields as `{{placeholders}}` (TEMPLATE_PLACEHOLDERS in contract/constants.ts). A pair nobody edited
 * uses the Chinese default here; an edited one is a notify_template row (monitor/template). The
 * robots (DingTalk, WeCom, Feishu) render Markdown, so their default text is a Markdown list with
 * bold names; e-mail and the webhook get the same lines as plain text (the webhook also sends the
 * fields themselves as `alarm`). Every message links to the alarm in the console
 * (`/hotel/alarm?id=`; NOTIFY_CONSOLE_URL goes before it): `{{link}}` stays in the stored text and
 * is filled when the message is sent (`fillLink`), since the console address is the sender's setting.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { ChannelType } from '../../../contract/monitor/channel';
import { alarmSeverityLabel, alarmTypeLabel, TEMPLATE_PLACEHOLDERS, type TemplateKind, type TemplatePlaceholder } from '../../../contract/constants';
import { formatTime } from '../../../contract/time';

type Db = Kysely<Database> | Transaction<Database>;
export type AlarmMessageKind = TemplateKind;

/** The fields of an alarm a message may show. */
export interface AlarmFields {
  id: number;
  type: string;
  severity: string;
  message: string;
  startedAt: number;
  clearedAt: number | null;
  count: number;
  deviceId: number;
  deviceName: string;
  deviceSn: string;
  /** 主楼 / 8F / 0808, or the room number when the device has no location. */
  location: string;
}

export interface TemplateText {
  title: string;
  body: string;
}

/** Edited templates by `channelType:kind`; a pair missing uses its default. */
export type TemplateSet = ReadonlyMap<string, TemplateText>;
export const templateKey = (channelType: string, kind: string) => `${channelType}:${kind}`;

/** The Chinese defaults, as lines: the robots get them as a Markdown list. */
const DEFAULTS: Record<AlarmMessageKind, { title: string; lines: string[] }> = {
  raise: {
    title: '【{{severity}}】{{alarmType}}：{{deviceName}}',
    lines: ['设备：{{deviceName}}（{{deviceSn}}）', '位置：{{location}}', '级别：{{severity}}', '信息：{{message}}', '开始时间：{{time}}'],
  },
  clear: {
    title: '【已恢复】{{alarmType}}：{{deviceName}}',
    lines: ['设备：{{deviceName}}（{{deviceSn}}）', '位置：{{location}}', '级别：{{severity}}', '开始时间：{{time}}', '恢复时间：{{clearedTime}}'],
  },
  escalation: {
    title: '【升级·{{minutes}} 分钟未确认】【{{severity}}】{{alarmType}}：{{deviceName}}',
    lines: [
      '设备：{{deviceName}}（{{deviceSn}}）',
      '位置：{{location}}',
      '级别：{{severity}}',
      '信息：{{message}}',
      '开始时间：{{time}}',
      '已 {{minutes}} 分钟无人确认，请尽快处理',
    ],
  },
};

const MARKDOWN_TYPES: ReadonlySet<string> = new Set<ChannelType>(['dingtalk', 'wecom', 'feishu']);
export const rendersMarkdown = (channelType: string) => MARKDOWN_TYPES.has(channelType);

/** A Markdown list item with the field's name in bold: "- **设备**：…". */
const markdownLine = (line: string) => {
  const colon = line.indexOf('：');
  return colon > 0 ? `- **${line.slice(0, colon)}**：${line.slice(colon + 1)}` : `- ${line}`;
};

export function defaultTemplate(channelType: string, kind: AlarmMessageKind): TemplateText {
  const { title, lines } = DEFAULTS[kind];
  return { title, body: rendersMarkdown(channelType) ? lines.map(markdownLine).join('\n') : lines.join('\n') };
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const LINK = /\{\{\s*link\s*\}\}/g;
const isPlaceholder = (name: string): name is TemplatePlaceholder => Object.hasOwn(TEMPLATE_PLACEHOLDERS, name);

/** The placeholders of `text` that are not TEMPLATE_PLACEHOLDERS (each once, in order), as written: `{{name}}`. */
export function unknownPlaceholders(text: string): string[] {
  const unknown = [...text.matchAll(PLACEHOLDER)].filter((match) => !isPlaceholder(match[1])).map((match) => `{{${match[1]}}}`);
  return [...new Set(unknown)];
}

export function alarmLink(alarmId: number): string {
  return `/hotel/alarm?id=${alarmId}`;
}

/** The placeholders' values for an alarm, but `link` (filled at sending). */
function alarmValues(alarm: AlarmFields, minutes: number): Record<Exclude<TemplatePlaceholder, 'link'>, string> {
  return {
    deviceName: alarm.deviceName,
    deviceSn: alarm.deviceSn,
    location: alarm.location || '未设置',
    severity: alarmSeverityLabel(alarm.severity),
    alarmType: alarmTypeLabel(alarm.type),
    message: alarm.message,
    time: formatTime(alarm.startedAt),
    clearedTime: formatTime(alarm.clearedAt),
    minutes: String(minutes),
    alarmId: String(alarm.id),
  };
}

/** Puts the values in, in one pass (a value that looks like a placeholder stays as it is); `{{link}}` is left for `fillLink`. */
const fill = (text: string, values: Record<string, string>) =>
  text.replace(PLACEHOLDER, (whole, name: string) => (name !== 'link' && Object.hasOwn(values, name) ? values[name] : whole));

/** The console link put in where the template says `{{link}}` ('' with no console address). */
export const fillLink = (text: string, link: string) => text.replace(LINK, link);

/** The edited templates, read once per alarm event that makes messages (a handful of rows). */
export async function loadTemplates(db: Db): Promise<TemplateSet> {
  const rows = await db.selectFrom('notifyTemplate').select(['channelType', 'kind', 'title', 'body']).execute();
  return new Map(rows.map((row) => [templateKey(row.channelType, row.kind), { title: row.title, body: row.body }]));
}

/** A template filled with an alarm's fields. */
export function fillTemplate(template: TemplateText, alarm: AlarmFields, minutes = 0): TemplateText {
  const values = alarmValues(alarm, minutes);
  return { title: fill(template.title, values), body: fill(template.body, values) };
}

/** The title, text, link and structured fields of an alarm's message for a channel of `channelType`. */
export function renderAlarmMessage(channelType: string, kind: AlarmMessageKind, alarm: AlarmFields, minutes = 0, templates: TemplateSet = new Map()) {
  const template = templates.get(templateKey(channelType, kind)) ?? defaultTemplate(channelType, kind);
  return { ...fillTemplate(template, alarm, minutes), link: alarmLink(alarm.id), payload: { ...alarm, event: kind } };
}
