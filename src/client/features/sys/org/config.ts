/** What the organisation screen edits: the unit dialog's fields and the kind a new child unit starts as. */
import { ORG_KIND_LABELS, ORG_KINDS, type OrgKind } from '../../../../contract/constants';
import type { FieldConfig, FormValues, SelectOption } from '../../../components/list-screen';
import { orgTreeSelectFor, type OrgRow } from '../../../components/org-tree';

/** A group holds regions, a region hotels, a hotel departments (and a department sub-departments). */
export const CHILD_KIND: Record<OrgKind, OrgKind> = { group: 'region', region: 'hotel', hotel: 'department', department: 'department' };

const KIND_OPTIONS: SelectOption[] = ORG_KINDS.map((kind) => ({ value: kind, label: ORG_KIND_LABELS[kind] }));

const parentField: FieldConfig = { name: 'pid', label: '上级单位', kind: 'select', required: true, control: orgTreeSelectFor('sys/org') };

const unitFields: FieldConfig[] = [
  { name: 'name', label: '单位名称', kind: 'text', required: true, max: 64 },
  { name: 'kind', label: '单位类型', kind: 'select', required: true, useOptions: () => KIND_OPTIONS },
  {
    name: 'code',
    label: '单位编码',
    kind: 'text',
    required: true,
    max: 32,
    pattern: { regex: /^[A-Za-z0-9_-]+$/, message: '单位编码只能包含字母、数字、_ 和 -' },
  },
  { name: 'sort', label: '排序', kind: 'number', required: true, min: 0, max: 9999 },
  { name: 'state', label: '状态', kind: 'switch', dict: 'state' },
  { name: 'remark', label: '备注', kind: 'textarea', max: 200 },
];

/**
 * The dialog's fields: a unit moves by changing its parent, except the top of the caller's tree
 * (the group, or a scoped administrator's own unit), which stays where it is.
 */
export const orgFields = (movable: boolean): FieldConfig[] => (movable ? [parentField, ...unitFields] : unitFields);

export const childDefaults = (parent: OrgRow): FormValues => ({ pid: parent.id, kind: CHILD_KIND[parent.kind as OrgKind] ?? 'department', sort: 0, state: 1, remark: '' });

export const editValues = (unit: OrgRow): FormValues => ({ ...unit });
