/** What the role screen shows and edits: one role as the list answers it, filters, columns and dialog fields. */
import { Space, Tag } from 'antd';

import type { BodyOf, DataOf } from '../../../../contract';
import { DATA_SCOPE_LABELS, DATA_SCOPES } from '../../../../contract/constants';
import type { ColumnConfig, FieldConfig, FormValues, SelectOption, SortKeyOf } from '../../../components/list-screen';
import { orgTreeCheckFor } from '../../../components/org-tree';

/** One role as the list answers it; the dialogs take the row they were opened from. */
export type RoleRow = DataOf<'/sys/role/inquire'>['records'][number];

export const roleFilters: FieldConfig[] = [
  { name: 'name', label: '角色名称', kind: 'text', max: 32 },
  { name: 'state', label: '状态', kind: 'select', dict: 'state', numeric: true },
];

export const roleColumns: ColumnConfig<RoleRow, SortKeyOf<BodyOf<'/sys/role/inquire'>>>[] = [
  {
    title: '角色名称',
    dataIndex: 'name',
    sortKey: 'name',
    render: (name: string, role) => (
      <Space size={4}>
        {name}
        {role.builtin === 1 && <Tag color="blue">内置</Tag>}
      </Space>
    ),
  },
  { title: '备注', dataIndex: 'remark', ellipsis: true },
  { title: '状态', dataIndex: 'state', dict: 'state', width: 90, sortKey: 'state' },
  {
    title: '数据范围',
    dataIndex: 'dataScope',
    width: 130,
    render: (scope: string, role) => {
      const label = DATA_SCOPE_LABELS[scope as keyof typeof DATA_SCOPE_LABELS] ?? scope;
      return scope === 'custom' ? `${label}（${role.scopeOrgIds.length} 个）` : label;
    },
  },
  { title: '用户数', dataIndex: 'userCount', width: 90 },
  { title: '更新时间', dataIndex: 'updatedAt', width: 180, sortKey: 'updatedAt', relativeTime: true },
];

/** Which rows the role's users see (docs/API.md, data scope), widest first. */
const DATA_SCOPE_OPTIONS: SelectOption[] = DATA_SCOPES.map((scope) => ({ value: scope, label: DATA_SCOPE_LABELS[scope] }));

export const roleFields: FieldConfig[] = [
  { name: 'name', label: '角色名称', kind: 'text', required: true, max: 32 },
  { name: 'dataScope', label: '数据范围', kind: 'select', required: true, useOptions: () => DATA_SCOPE_OPTIONS },
  {
    name: 'scopeOrgIds',
    label: '指定单位',
    kind: 'select',
    control: orgTreeCheckFor('sys/role'),
    shownWhen: { field: 'dataScope', values: ['custom'] },
    // The server counts each chosen unit with its whole subtree; the tree checks strictly to match.
    extra: '勾选的每个单位都包含它的全部下级单位；勾选上级不会勾选下级，也不必再勾选下级',
    rules: [
      {
        validator: (_rule, value: unknown) => (Array.isArray(value) && value.length > 0 ? Promise.resolve() : Promise.reject(new Error('请至少勾选一个单位'))),
      },
    ],
  },
  { name: 'remark', label: '备注', kind: 'textarea', max: 200 },
  { name: 'state', label: '状态', kind: 'switch', dict: 'state' },
];

export const roleCreateDefaults: FormValues = { remark: '', state: 1, dataScope: 'all' };
