/** What the dictionary screen shows and edits (docs/api/system.md, Dictionaries: id, code, label, value, sort, state, remark). */
import type { BodyOf, DataOf } from '../../../../contract';
import type { ColumnConfig, FieldConfig, FormValues, SortKeyOf } from '../../../components/list-screen';

export type DictRow = DataOf<'/sys/dict/inquire'>['records'][number];

export const dictFilters: FieldConfig[] = [
  { name: 'code', label: '字典编码', kind: 'text', max: 40 },
  { name: 'label', label: '名称', kind: 'text', max: 32 },
  { name: 'state', label: '状态', kind: 'select', dict: 'state', numeric: true },
];

export const dictColumns: ColumnConfig<DictRow, SortKeyOf<BodyOf<'/sys/dict/inquire'>>>[] = [
  { title: '字典编码', dataIndex: 'code', sortKey: 'code' },
  { title: '名称', dataIndex: 'label', sortKey: 'label' },
  { title: '值', dataIndex: 'value', sortKey: 'value' },
  { title: '排序', dataIndex: 'sort', sortKey: 'sort' },
  { title: '状态', dataIndex: 'state', dict: 'state', sortKey: 'state' },
  { title: '备注', dataIndex: 'remark', ellipsis: true },
];

export const dictFields: FieldConfig[] = [
  {
    name: 'code',
    label: '字典编码',
    kind: 'text',
    required: true,
    max: 40,
    pattern: { regex: /^[a-z][a-z0-9_]{0,39}$/, message: '字典编码只能包含小写字母、数字和下划线，以字母开头' },
  },
  { name: 'label', label: '名称', kind: 'text', required: true, max: 32 },
  { name: 'value', label: '值', kind: 'text', required: true, max: 40 },
  { name: 'sort', label: '排序', kind: 'number', required: true, min: 0, max: 9999 },
  { name: 'state', label: '状态', kind: 'switch', dict: 'state' },
  { name: 'remark', label: '备注', kind: 'textarea', max: 200 },
];

export const dictCreateDefaults: FormValues = { sort: 0, state: 1, remark: '' };
