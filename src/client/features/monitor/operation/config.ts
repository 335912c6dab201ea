/**
 * What the operation log shows and filters on. Outcome, operator type and target type labels are
 * the menu dictionary's; modules and actions are the ones recorded so far (/monitor/operation/options).
 */
import { Form } from 'antd';

import type { DataOf } from '../../../../contract';
import type { FieldConfig, SelectOption } from '../../../components/list-screen';
import { useOperationOptionsQuery } from './api';

export type OperationRow = DataOf<'/monitor/operation/inquire'>['records'][number];

/** Tag colours of the outcomes (their labels are dictionary data). */
export const OUTCOME_COLORS: Readonly<Record<string, string>> = { success: 'success', refused: 'warning', failed: 'error' };

function useModuleOptions(): SelectOption[] {
  const { data } = useOperationOptionsQuery();
  return (data ?? []).map(({ module }) => ({ value: module, label: module }));
}

/** The actions of the module chosen in the same form, or of every module. */
function useActionOptions(): SelectOption[] {
  const module = Form.useWatch<string | undefined>('module', Form.useFormInstance());
  const { data } = useOperationOptionsQuery();
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
