/**
 * What the maintenance screen shows and edits: a location subtree (or the whole hotel) silenced
 * from a start to an end, picked in Asia/Shanghai with the list-screen's time range input.
 */
import { Tag } from 'antd';

import type { BodyOf, DataOf } from '../../../../contract';
import type { ColumnConfig, FieldConfig, FormValues, TimeRange } from '../../../components/list-screen';
import { locationTreeSelectFor } from '../../../components/location-tree';
import { formatTime } from '../../../lib/time';

export type MaintenanceRow = DataOf<'/monitor/maintenance/inquire'>['records'][number];
type MaintenanceBody = BodyOf<'/monitor/maintenance/creation'>;

export const maintenanceFilters: FieldConfig[] = [
  { name: 'name', label: '维护名称', kind: 'text', max: 64 },
  { name: 'state', label: '状态', kind: 'select', dict: 'state', numeric: true },
];

function phase(row: MaintenanceRow, now: number) {
  if (row.state !== 1) return <Tag>已停用</Tag>;
  if (now < row.startsAt) return <Tag color="blue">未开始</Tag>;
  return now < row.endsAt ? <Tag color="orange">进行中</Tag> : <Tag>已结束</Tag>;
}

export const maintenanceColumns: ColumnConfig<MaintenanceRow>[] = [
  { title: '维护名称', dataIndex: 'name', nowrap: true },
  { title: '位置', dataIndex: 'locationPath', render: (path: string) => path || '全部' },
  { title: '开始时间', dataIndex: 'startsAt', nowrap: true, render: (at: number) => formatTime(at) },
  { title: '结束时间', dataIndex: 'endsAt', nowrap: true, render: (at: number) => formatTime(at) },
  { title: '阶段', key: 'phase', nowrap: true, render: (_: unknown, row: MaintenanceRow) => phase(row, Date.now()) },
  { title: '状态', dataIndex: 'state', dict: 'state', nowrap: true },
  { title: '备注', dataIndex: 'remark', ellipsis: true },
];

const bothEnds = {
  validator: (_: unknown, value: TimeRange | undefined) =>
    value && value[0] !== null && value[1] !== null ? Promise.resolve() : Promise.reject(new Error('请选择开始和结束时间')),
};

const MaintenanceLocationSelect = locationTreeSelectFor('monitor/maintenance');

export const maintenanceFields: FieldConfig[] = [
  { name: 'name', label: '维护名称', kind: 'text', required: true, max: 64 },
  { name: 'locationId', label: '位置范围', kind: 'select', control: MaintenanceLocationSelect, extra: '所选位置及其下级；不选即全部' },
  { name: 'period', label: '维护时间', kind: 'timeRange', rules: [bothEnds], extra: '期间该范围内的告警照常记录，但不发送通知' },
  { name: 'state', label: '状态', kind: 'switch', dict: 'state' },
  { name: 'remark', label: '备注', kind: 'textarea', max: 200 },
];

export const maintenanceCreateDefaults: FormValues = { locationId: null, state: 1, remark: '' };

/** The picker's range ends on the last millisecond of its minute; the window ends at the next one. */
function toBody(values: FormValues): MaintenanceBody {
  const [startsAt, end] = values.period as [number, number];
  return {
    name: values.name as string,
    locationId: (values.locationId as number | null | undefined) ?? null,
    startsAt,
    endsAt: end + 1,
    state: values.state as number,
    remark: (values.remark as string | undefined) ?? '',
  };
}

export const maintenanceFromForm = {
  create: toBody,
  edit: (values: FormValues, row: MaintenanceRow): BodyOf<'/monitor/maintenance/edit'> => ({ ...toBody(values), id: row.id, version: row.version }),
};

export const maintenanceToForm = (row: MaintenanceRow): FormValues => ({ ...row, period: [row.startsAt, row.endsAt - 1] });
