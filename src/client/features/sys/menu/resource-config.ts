/**
 * What a menu's resource list shows and edits. In the dialog the category (`type`) and the key
 * (`field_type`) are two inputs joined into the stored type on save and split back on edit
 * (resource-type.ts); an API resource must name the API path it guards.
 */
import type { BodyOf, DataOf } from '../../../../contract';
import { RESOURCE_CATEGORIES } from '../../../../contract/constants';
import type { ColumnConfig, FieldConfig, FormValues, SelectOption, SortKeyOf } from '../../../components/list-screen';
import { joinResourceType, splitResourceType, type ResourceTypeInputs } from './resource-type';

export type ResourceRow = DataOf<'/sys/resource/menu/inquire'>['records'][number];
type ResourceCreation = BodyOf<'/sys/resource/creation'>;
type ResourceEdit = BodyOf<'/sys/resource/edit'>;

const CATEGORY_LABELS: Record<(typeof RESOURCE_CATEGORIES)[number], string> = { api: '接口', field: '字段', button: '按钮' };
const CATEGORY_OPTIONS: SelectOption[] = RESOURCE_CATEGORIES.map((category) => ({
  value: category,
  label: `${CATEGORY_LABELS[category]}（${category}）`,
}));

export const resourceColumns: ColumnConfig<ResourceRow, SortKeyOf<BodyOf<'/sys/resource/menu/inquire'>>>[] = [
  { title: '资源名称', dataIndex: 'name', sortKey: 'name' },
  { title: '资源类型', dataIndex: 'type', sortKey: 'type' },
  { title: '接口路径', dataIndex: 'path', sortKey: 'path' },
  { title: '备注', dataIndex: 'remark', ellipsis: true },
];

export const resourceFields: FieldConfig[] = [
  { name: 'name', label: '资源名称', kind: 'text', required: true, max: 32 },
  { name: 'type', label: '资源类别', kind: 'select', required: true, useOptions: () => CATEGORY_OPTIONS },
  { name: 'field_type', label: '资源标识', kind: 'text', required: true, max: 32, placeholder: '例如 inquire、state' },
  {
    name: 'path',
    label: '接口路径',
    kind: 'text',
    max: 100,
    placeholder: '例如 /sys/user/inquire，非接口资源留空',
    dependencies: ['type'],
    rules: [({ getFieldValue }) => ({ required: getFieldValue('type') === 'api', message: '接口资源必须填写接口路径' })],
  },
  { name: 'remark', label: '备注', kind: 'textarea', max: 200 },
];

export const resourceDefaults: FormValues = { type: 'api', path: '', remark: '' };

export function resourceToForm({ name, type, path, remark }: ResourceRow): FormValues {
  return { name, path, remark, ...splitResourceType(type) };
}

interface ResourceInputs extends ResourceTypeInputs {
  name: string;
  path: string;
  remark: string;
}

function resourceInputs(values: FormValues): ResourceInputs {
  return {
    name: values.name as string,
    type: values.type as ResourceInputs['type'],
    field_type: values.field_type as string,
    path: (values.path as string | undefined) ?? '',
    remark: (values.remark as string | undefined) ?? '',
  };
}

export function resourceFromForm(menuId: number) {
  return {
    create: (values: FormValues): ResourceCreation => ({ menuId, ...joinResourceType(resourceInputs(values)) }),
    edit: (values: FormValues, row: ResourceRow): ResourceEdit => ({
      ...joinResourceType(resourceInputs(values)),
      id: row.id,
      version: row.version,
    }),
  };
}
