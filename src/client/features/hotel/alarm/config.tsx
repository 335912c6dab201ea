/** What the alarm screen shows and filters by; severity labels are dictionary data (alarm_severity). */
import { Tag } from 'antd';

import type { BodyOf, DataOf } from '../../../../contract';
import { alarmTypeLabel } from '../../../../contract/constants';
import type { ColumnConfig, FieldConfig, SelectOption, SortKeyOf } from '../../../components/list-screen';
import { formatTime } from '../../../lib/time';

export type AlarmRow = DataOf<'/hotel/alarm/inquire'>['records'][number];
type AlarmSortKey = SortKeyOf<BodyOf<'/hotel/alarm/inquire'>>;

const STATUS_OPTIONS: SelectOption[] = [
  { label: '活动', value: 'active' },
  { label: '已清除', value: 'cleared' },
];
const ACKNOWLEDGED_OPTIONS: SelectOption[] = [
  { label: '已确认', value: 1 },
  { label: '未确认', value: 0 },
];
const useStatusOptions = () => STATUS_OPTIONS;
const useAcknowledgedOptions = () => ACKNOWLEDGED_OPTIONS;

export const alarmFilters: FieldConfig[] = [
  { name: 'status', label: '状态', kind: 'select', useOptions: useStatusOptions },
  { name: 'acknowledged', label: '确认', kind: 'select', useOptions: useAcknowledgedOptions, numeric: true },
  { name: 'severity', label: '级别', kind: 'select', dict: 'severity' },
  { name: 'device', label: '设备', kind: 'text', max: 64 },
  { name: 'startedAt', label: '开始时间', kind: 'timeRange', range: ['startAt', 'endAt'] },
];

const who = (by: string | null, at: number | null) => (at === null ? '' : `${by ?? ''} ${formatTime(at)}`);

/** An alarm still waiting for someone: neither acknowledged nor cleared (only these offer 确认). */
export const isOpen = (alarm: AlarmRow) => alarm.acknowledgedAt === null && alarm.clearedAt === null;
/** The note 确认 may carry: the contract's 确认备注 limit. */
export const ACKNOWLEDGE_NOTE = { label: '确认备注', max: 200 };

/**
 * The ellipsis columns make the table lay out fixed, so each column of short content has its width
 * (times wrap to the date over the time) and the text columns share the rest, each on one line with
 * the whole text on hover; below `ALARM_TABLE_WIDTH` the table scrolls sideways.
 */
export const alarmColumns: ColumnConfig<AlarmRow, AlarmSortKey>[] = [
  {
    title: '设备',
    dataIndex: 'deviceName',
    width: 220,
    ellipsis: true,
    // A location alarm's subject is its floor or building, whose devices went offline together.
    render: (_: string, row: AlarmRow) =>
      row.locationPath !== null
        ? `${row.locationPath}${row.symptomCount > 0 ? `，${row.symptomCount} 台设备离线` : ''}`
        : `${row.deviceName}（${row.deviceSn}）${row.symptomCount > 0 ? `，${row.symptomCount} 台设备不可达` : ''}`,
  },
  { title: '类型', dataIndex: 'type', width: 88, nowrap: true, render: alarmTypeLabel },
  { title: '级别', dataIndex: 'severity', dict: 'severity', sortKey: 'severity', width: 80, nowrap: true },
  {
    title: '状态',
    dataIndex: 'clearedAt',
    width: 88,
    nowrap: true,
    render: (clearedAt: number | null) => (clearedAt === null ? <Tag color="red">活动</Tag> : <Tag>已清除</Tag>),
  },
  { title: '开始时间', dataIndex: 'startedAt', sortKey: 'startedAt', width: 104, render: (at: number) => formatTime(at) },
  { title: '最近发生', dataIndex: 'lastAt', sortKey: 'lastAt', width: 100, relativeTime: true },
  { title: '次数', dataIndex: 'count', sortKey: 'count', width: 70 },
  {
    title: '确认',
    dataIndex: 'acknowledgedAt',
    ellipsis: true,
    render: (at: number | null, row: AlarmRow) => (row.acknowledgeNote ? `${who(row.acknowledgedBy, at)}：${row.acknowledgeNote}` : who(row.acknowledgedBy, at)),
  },
  { title: '清除', dataIndex: 'clearedBy', ellipsis: true, render: (_: string | null, row: AlarmRow) => who(row.clearedBy, row.clearedAt) },
  { title: '信息', dataIndex: 'message', ellipsis: true },
];

/** The tick box, unfold and 操作 columns, the fixed columns and room for the three shared text columns. */
export const ALARM_TABLE_WIDTH = 1300;
