/**
 * What the operation log shows and filters on: who did what to which record, with what outcome,
 * from where. Outcome, operator type and target type labels are the menu dictionary's; modules and
 * actions are the ones recorded so far (/monitor/operation/options).
 */
import { Form, Space, Tag, Typography } from 'antd';

import type { DataOf } from '../../../../contract';
import { DictTag, useMenuDictContext, type ColumnConfig, type FieldConfig, type SelectOption } from '../../../components/list-screen';
import { formatTime } from '../../../lib/time';
import { useOperationOptions } from './api';

export type OperationRow = DataOf<'/monitor/operation/inquire'>['records'][number];

/** Tag colours of the outcomes (their labels are dictionary data). */
export const OUTCOME_COLORS: Readonly<Record<string, string>> = { success: 'success', refused: 'warning', failed: 'error' };

function useModuleOptions(): SelectOption[] {
  const { data } = useOperationOptions();
  return (data ?? []).map(({ module }) => ({ value: module, label: module }));
}

/** The actions of the module chosen in the same form, or of every module. */
function useActionOptions(): SelectOption[] {
  const module = Form.useWatch<string | undefined>('module', Form.useFormInstance());
  const { data } = useOperationOptions();
  const actions = (data ?? []).filter((option) => !module || option.module === module).flatMap((option) => option.actions);
  return [...new Set(actions)].map((action) => ({ value: action, label: action }));
}

export const operationFilters: FieldConfig[] = [
  { name: 'time', label: '时间', kind: 'timeRange', range: ['startAt', 'endAt'] },
  { name: 'operatorName', label: '操作人', kind: 'text', max: 64 },
  { name: 'module', label: '模块', kind: 'select', useOptions: useModuleOptions },
  { name: 'action', label: '操作', kind: 'select', useOptions: useActionOptions },
  { name: 'outcome', label: '结果', kind: 'select', dict: 'outcome' },
];

/** The operator's name; a device or a caller without a session is marked as such. */
export function OperatorCell({ row }: { row: Pick<OperationRow, 'operatorName' | 'operatorType'> }) {
  const dict = useMenuDictContext();
  const kind = dict.labelOf('operatorType', row.operatorType);
  // A user needs no mark, nor an operator whose name already says what it is (系统).
  if (row.operatorType === 'user' || kind === row.operatorName) return <>{row.operatorName}</>;
  return (
    <Space size={4}>
      {row.operatorName}
      <Tag>{kind}</Tag>
    </Space>
  );
}

/** e.g. 用户 zhangsan #12, flowing as text; empty for a call that acts on no single record. */
export function TargetCell({ row }: { row: Pick<OperationRow, 'targetType' | 'targetId' | 'targetLabel'> }) {
  const dict = useMenuDictContext();
  if (!row.targetType) return null;
  return (
    <span>
      <Tag>{dict.labelOf('targetType', row.targetType)}</Tag>
      {row.targetLabel}
      {row.targetId && <Typography.Text type="secondary"> #{row.targetId}</Typography.Text>}
    </span>
  );
}

export const operationColumns: ColumnConfig<OperationRow>[] = [
  { title: '时间', dataIndex: 'at', nowrap: true, render: (at: number) => formatTime(at) },
  { title: '操作人', dataIndex: 'operatorName', nowrap: true, render: (_name: string, row) => <OperatorCell row={row} /> },
  { title: '模块', dataIndex: 'module', nowrap: true },
  { title: '操作', dataIndex: 'action', nowrap: true },
  { title: '操作对象', key: 'target', render: (_value: unknown, row) => <TargetCell row={row} /> },
  { title: '结果', dataIndex: 'outcome', render: (outcome: string) => <DictTag field="outcome" value={outcome} colors={OUTCOME_COLORS} /> },
  { title: '信息', dataIndex: 'msg' },
  { title: 'IP', dataIndex: 'ip' },
  { title: '耗时', dataIndex: 'durationMs', align: 'right', nowrap: true, render: (ms: number) => `${ms} ms` },
];
