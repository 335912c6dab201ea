/**
 * What an alarm's message says, per channel type: a title and a text with the alarm's fields put in
 * (`{device}`, `{severity}`, ...). The robots (DingTalk, WeCom, Feishu) render Markdown, so their
 * text is a Markdown list with bold names; e-mail and the webhook get the same lines as plain text
 * (the webhook also sends the fields themselves as `alarm`). Every message links to the alarm in
 * the console (`/hotel/alarm?id=`; NOTIFY_CONSOLE_URL goes before it).
 */
import type { ChannelType } from '../../../contract/monitor/channel';
import { formatTime } from '../../../contract/time';

export type AlarmMessageKind = 'raise' | 'clear' | 'escalation';

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

export const SEVERITY_LABELS: Readonly<Record<string, string>> = { critical: '严重', major: '重要', minor: '次要', warning: '警告' };
export const ALARM_TYPE_LABELS: Readonly<Record<string, string>> = { offline: '设备离线', floor_offline: '楼层断连', building_offline: '楼栋断连' };

interface Template {
  title: string;
  lines: string[];
}

/** The Chinese defaults. `{minutes}` is an escalation step's delay. */
const TEMPLATES: Record<AlarmMessageKind, Template> = {
  raise: {
    title: '【{severity}】{type}：{device}',
    lines: ['设备：{device}（{sn}）', '位置：{location}', '级别：{severity}', '信息：{message}', '开始时间：{startedAt}'],
  },
  clear: {
    title: '【已恢复】{type}：{device}',
    lines: ['设备：{device}（{sn}）', '位置：{location}', '级别：{severity}', '开始时间：{startedAt}', '恢复时间：{clearedAt}'],
  },
  escalation: {
    title: '【升级·{minutes} 分钟未确认】【{severity}】{type}：{device}',
    lines: ['设备：{device}（{sn}）', '位置：{location}', '级别：{severity}', '信息：{message}', '开始时间：{startedAt}', '已 {minutes} 分钟无人确认，请尽快处理'],
  },
};

const MARKDOWN_TYPES: ReadonlySet<string> = new Set<ChannelType>(['dingtalk', 'wecom', 'feishu']);

const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

/** A Markdown list item with the field's name in bold: "- **设备**：…". */
const markdownLine = (line: string) => {
  const colon = line.indexOf('：');
  return colon > 0 ? `- **${line.slice(0, colon)}**：${line.slice(colon + 1)}` : `- ${line}`;
};

export function alarmLink(alarmId: number): string {
  return `/hotel/alarm?id=${alarmId}`;
}

/** The title, text, link and structured fields of an alarm's message for a channel of `channelType`. */
export function renderAlarmMessage(channelType: string, kind: AlarmMessageKind, alarm: AlarmFields, minutes = 0) {
  const values: Record<string, string> = {
    device: alarm.deviceName,
    sn: alarm.deviceSn,
    location: alarm.location || '未设置',
    severity: SEVERITY_LABELS[alarm.severity] ?? alarm.severity,
    type: ALARM_TYPE_LABELS[alarm.type] ?? alarm.type,
    message: alarm.message,
    startedAt: formatTime(alarm.startedAt),
    clearedAt: formatTime(alarm.clearedAt),
    minutes: String(minutes),
  };
  const template = TEMPLATES[kind];
  const lines = template.lines.map((line) => fill(line, values));
  return {
    title: fill(template.title, values),
    body: MARKDOWN_TYPES.has(channelType) ? lines.map(markdownLine).join('\n') : lines.join('\n'),
    link: alarmLink(alarm.id),
    payload: { ...alarm, event: kind },
  };
}
