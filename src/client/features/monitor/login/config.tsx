/** What the login log shows and filters on; event and outcome labels are the menu dictionary's. */
import type { DataOf } from '../../../../contract';
import { DictTag, type ColumnConfig, type FieldConfig } from '../../../components/list-screen';
import { formatTime } from '../../../lib/time';

export type LoginRow = DataOf<'/monitor/login/inquire'>['records'][number];

/** Refused sign-ins stand out; session ends are neutral. */
const OUTCOME_COLORS: Readonly<Record<string, string>> = {
  success: 'success',
  wrongPassword: 'error',
  unknownUser: 'error',
  throttled: 'error',
  disabled: 'warning',
  noRole: 'warning',
  forced: 'warning',
};

export const loginFilters: FieldConfig[] = [
  { name: 'time', label: '时间', kind: 'timeRange', range: ['startAt', 'endAt'] },
  { name: 'userName', label: '用户名', kind: 'text', max: 64 },
  { name: 'ip', label: 'IP 地址', kind: 'text', max: 64 },
  { name: 'event', label: '事件', kind: 'select', dict: 'event' },
  { name: 'outcome', label: '结果', kind: 'select', dict: 'outcome' },
];

export const loginColumns: ColumnConfig<LoginRow>[] = [
  { title: '时间', dataIndex: 'at', nowrap: true, render: (at: number) => formatTime(at) },
  { title: '用户名', dataIndex: 'userName' },
  { title: 'IP 地址', dataIndex: 'ip' },
  { title: '浏览器', dataIndex: 'browser' },
  { title: '操作系统', dataIndex: 'os' },
  { title: '事件', dataIndex: 'event', dict: 'event' },
  { title: '结果', dataIndex: 'outcome', render: (outcome: string) => <DictTag field="outcome" value={outcome} colors={OUTCOME_COLORS} /> },
  { title: '信息', dataIndex: 'msg' },
];
