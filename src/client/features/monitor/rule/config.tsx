/**
 * What the rule screen shows and edits (docs/api/monitor.md, From alarms to messages). Quiet hours
 * are typed as HH:mm (Asia/Shanghai) and sent as minutes of the day; severity labels are the menu
 * dictionary's (alarm_severity).
 */
import type { DataOf, BodyOf } from '../../../../contract';
import { alarmTypeLabel } from '../../../../contract/constants';
import type { ColumnConfig, FieldConfig, FormValues } from '../../../components/list-screen';
import { locationTreeSelectFor } from '../../../components/location-tree';
import { AlarmTypesInput, ChannelsInput, EscalationInput, OrgUnitInput } from './controls';

export type RuleRow = DataOf<'/monitor/rule/inquire'>['records'][number];
type RuleBody = BodyOf<'/monitor/rule/creation'>;

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const pad = (n: number) => String(n).padStart(2, '0');
export const clockOf = (minutes: number | null) => (minutes === null ? '' : `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`);
const minutesOf = (text: unknown): number | null => {
  if (typeof text !== 'string' || !HH_MM.test(text)) return null;
  const [hours, minutes] = text.split(':').map(Number);
  return hours * 60 + minutes;
};

export const ruleFilters: FieldConfig[] = [
  { name: 'name', label: '规则名称', kind: 'text', max: 64 },
  { name: 'state', label: '状态', kind: 'select', dict: 'state', numeric: true },
];

export function ruleColumns(channelNames: (ids: readonly number[]) => string): ColumnConfig<RuleRow>[] {
  return [
    { title: '规则名称', dataIndex: 'name', nowrap: true },
    { title: '告警类型', dataIndex: 'alarmTypes', render: (types: string[]) => (types.length === 0 ? '全部' : types.map(alarmTypeLabel).join('、')) },
    { title: '最低级别', dataIndex: 'minSeverity', dict: 'minSeverity', nowrap: true },
    { title: '组织单位', dataIndex: 'orgName', render: (name: string) => name || '全部' },
    { title: '位置', dataIndex: 'locationPath', render: (path: string) => path || '全部' },
    { title: '通知渠道', dataIndex: 'channelIds', render: (ids: number[]) => channelNames(ids) },
    { title: '免打扰', key: 'quiet', nowrap: true, render: (_: unknown, row: RuleRow) => (row.quietStart === null ? '—' : `${clockOf(row.quietStart)}–${clockOf(row.quietEnd)}`) },
    {
      title: '升级',
      dataIndex: 'escalation',
      render: (steps: RuleRow['escalation']) => (steps.length === 0 ? '—' : steps.map((step) => `${step.afterMinutes} 分钟 → ${channelNames(step.channelIds)}`).join('；')),
    },
    { title: '状态', dataIndex: 'state', dict: 'state', nowrap: true },
  ];
}

const quietRule = { pattern: { regex: HH_MM, message: '请按 HH:mm 填写，如 22:00' } };

const RuleLocationSelect = locationTreeSelectFor('monitor/rule');

export const ruleFields: FieldConfig[] = [
  { name: 'name', label: '规则名称', kind: 'text', required: true, max: 64 },
  { name: 'alarmTypes', label: '告警类型', kind: 'select', control: AlarmTypesInput, extra: '不选即全部类型' },
  { name: 'minSeverity', label: '最低级别', kind: 'select', dict: 'minSeverity', required: true },
  { name: 'orgId', label: '组织单位', kind: 'select', control: OrgUnitInput, extra: '所选单位（如酒店、区域）及其下级单位的设备；不选即全部' },
  { name: 'locationId', label: '位置范围', kind: 'select', control: RuleLocationSelect, extra: '所选位置及其下级；不选即全部' },
  { name: 'symptoms', label: '衍生告警', kind: 'switch', switchLabels: ['也通知', '仅根因'] },
  { name: 'channelIds', label: '通知渠道', kind: 'select', control: ChannelsInput },
  { name: 'quietStart', label: '免打扰开始', kind: 'text', placeholder: '如 22:00（北京时间）', ...quietRule },
  { name: 'quietEnd', label: '免打扰结束', kind: 'text', placeholder: '如 07:00', ...quietRule, extra: '免打扰时段内不发送；可跨午夜，两项都留空即不设' },
  { name: 'escalation', label: '升级', kind: 'select', control: EscalationInput, extra: '告警在等待时间内未被确认或清除时，再通知这些渠道' },
  { name: 'state', label: '状态', kind: 'switch', dict: 'state' },
  { name: 'remark', label: '备注', kind: 'textarea', max: 200 },
];

export const ruleCreateDefaults: FormValues = {
  alarmTypes: [],
  minSeverity: 'warning',
  orgId: null,
  locationId: null,
  symptoms: 1,
  channelIds: [],
  quietStart: '',
  quietEnd: '',
  escalation: [],
  state: 1,
  remark: '',
};

function toBody(values: FormValues): RuleBody {
  return {
    name: values.name as string,
    state: values.state as number,
    alarmTypes: (values.alarmTypes as string[] | undefined) ?? [],
    minSeverity: values.minSeverity as RuleBody['minSeverity'],
    orgId: (values.orgId as number | null | undefined) ?? null,
    locationId: (values.locationId as number | null | undefined) ?? null,
    symptoms: values.symptoms as number,
    channelIds: (values.channelIds as number[] | undefined) ?? [],
    quietStart: minutesOf(values.quietStart),
    quietEnd: minutesOf(values.quietEnd),
    escalation: ((values.escalation as RuleBody['escalation'] | undefined) ?? []).map((step) => ({ afterMinutes: step.afterMinutes, channelIds: step.channelIds })),
    remark: (values.remark as string | undefined) ?? '',
  };
}

export const ruleFromForm = {
  create: toBody,
  edit: (values: FormValues, row: RuleRow): BodyOf<'/monitor/rule/edit'> => ({ ...toBody(values), id: row.id, version: row.version }),
};

export const ruleToForm = (row: RuleRow): FormValues => ({ ...row, quietStart: clockOf(row.quietStart), quietEnd: clockOf(row.quietEnd) });
