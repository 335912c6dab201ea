/**
 * What the advanced settings screen shows and edits (docs/api/hotel.md, Advanced settings). The app secret is write-only: the
 * list shows its masked form and the edit form starts empty, which keeps the stored secret.
 */
import type { BodyOf, DataOf } from '../../../../contract';
import type { ColumnConfig, FieldConfig, FormValues, SortKeyOf } from '../../../components/list-screen';
import { formatTime } from '../../../lib/time';

export type AdvancedRow = DataOf<'/hotel/advanced/inquire'>['records'][number];

export const INITIALISED_MSG = '初始化成功';

export const advancedFilters: FieldConfig[] = [
  { name: 'name', label: '配置名称', kind: 'text', max: 32 },
  { name: 'state', label: '状态', kind: 'select', dict: 'state', numeric: true },
];

export const advancedColumns: ColumnConfig<AdvancedRow, SortKeyOf<BodyOf<'/hotel/advanced/inquire'>>>[] = [
  { title: '配置名称', dataIndex: 'name', sortKey: 'name' },
  { title: '接口地址', dataIndex: 'endpointUrl', ellipsis: true },
  { title: 'App Key', dataIndex: 'appKey' },
  { title: 'App Secret', dataIndex: 'appSecretMasked' },
  { title: '状态', dataIndex: 'state', dict: 'state', sortKey: 'state' },
  {
    title: '初始化时间',
    dataIndex: 'initialisedAt',
    sortKey: 'initialisedAt',
    render: (value: number | null) => (value === null ? '未初始化' : formatTime(value)),
  },
];

const appSecretField: FieldConfig = { name: 'appSecret', label: 'App Secret', kind: 'password', max: 200 };

export const advancedFields: FieldConfig[] = [
  { name: 'name', label: '配置名称', kind: 'text', required: true, max: 32 },
  {
    name: 'endpointUrl',
    label: '接口地址',
    kind: 'text',
    max: 200,
    pattern: { regex: /^https?:\/\/\S+$/, message: '接口地址应以 http:// 或 https:// 开头' },
  },
  { name: 'appKey', label: 'App Key', kind: 'text', max: 100 },
  { ...appSecretField, only: 'create' },
  { ...appSecretField, only: 'edit', extra: '留空则保留原密钥' },
  { name: 'state', label: '状态', kind: 'switch', dict: 'state' },
  { name: 'remark', label: '备注', kind: 'textarea', max: 200 },
];

export const advancedCreateDefaults: FormValues = { endpointUrl: '', appKey: '', appSecret: '', state: 1, remark: '' };

/** The secret never comes back, so the edit form starts with it empty (= keep the stored one). */
export const advancedToForm = (row: AdvancedRow): FormValues => ({ ...row, appSecret: '' });
