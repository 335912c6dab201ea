/** What the user screen shows and edits: its filters, columns and form fields (docs/api/system.md, Users). */
import { PASSWORD_MAX, PASSWORD_MIN, USER_NAME_PATTERN, type Envelope } from '../../../../contract/constants';
import type { BodyOf, DataOf } from '../../../../contract';
import { useGranted, type ColumnConfig, type FieldConfig, type FormValues, type ImportConfig, type SelectOption, type SortKeyOf } from '../../../components/list-screen';
import { orgTreeSelectFor } from '../../../components/org-tree';
import { formatTime } from '../../../lib/time';
import { useUserRoleChoicesQuery } from './api';

export type UserRow = DataOf<'/sys/user/inquire'>['records'][number];
/** The user screen's menu element, under which its resources are granted. */
export const USER_VIEW = 'sys/user';
type UserSortKey = SortKeyOf<BodyOf<'/sys/user/inquire'>>;

export function useRoleOptions(): SelectOption[] {
  // Asked only of a role holding it (given with 查询用户 on upgrade, but a grant of its own).
  const mayChoose = useGranted(USER_VIEW, 'api_roleChoices');
  const { data } = useUserRoleChoicesQuery(undefined, { skip: !mayChoose });
  return (data ?? []).map((role) => ({ value: role.id, label: role.name }));
}

export const passwordField = (label: string): FieldConfig => ({
  name: 'password',
  label,
  kind: 'password',
  required: true,
  min: PASSWORD_MIN,
  max: PASSWORD_MAX,
});

export const userFilters: FieldConfig[] = [
  { name: 'userName', label: '用户名', kind: 'text', max: 32 },
  { name: 'nickName', label: '昵称', kind: 'text', max: 32 },
  { name: 'state', label: '状态', kind: 'select', dict: 'state', numeric: true },
  { name: 'roleId', label: '角色', kind: 'select', useOptions: useRoleOptions },
];

/**
 * One line per user: the names share what the fixed columns leave, each cut with the whole text on
 * hover, and below `USER_TABLE_WIDTH` (the unit tree beside the list at 1366 px) the table scrolls
 * sideways instead of squeezing them.
 */
export const userColumns: ColumnConfig<UserRow, UserSortKey>[] = [
  { title: '用户名', dataIndex: 'userName', sortKey: 'userName', ellipsis: true },
  { title: '昵称', dataIndex: 'nickName', sortKey: 'nickName', ellipsis: true },
  { title: '状态', dataIndex: 'state', dict: 'state', sortKey: 'state', width: 80 },
  { title: '角色', dataIndex: 'roleName', sortKey: 'roleName', ellipsis: true },
  { title: '所属单位', dataIndex: 'orgName', ellipsis: true },
  { title: '创建时间', dataIndex: 'createdAt', sortKey: 'createdAt', width: 170, nowrap: true, render: (value: number) => formatTime(value) },
];

/** The tick box, 状态, 创建时间 and 操作 columns, and about 110 px for each of the four names. */
export const USER_TABLE_WIDTH = 960;

/** The unit picker offers the caller's scope only (the tree answers no more). */
const orgField: FieldConfig = {
  name: 'orgId',
  label: '所属单位',
  kind: 'select',
  control: orgTreeSelectFor(USER_VIEW),
  extra: '不选：新用户与您同一单位，已有用户留在原单位',
};

const userFields: FieldConfig[] = [
  {
    name: 'userName',
    label: '用户名',
    kind: 'text',
    required: true,
    min: 3,
    max: 32,
    pattern: { regex: new RegExp(USER_NAME_PATTERN), message: '用户名只能包含字母、数字和 _ . @ -，长度 3-32' },
    only: 'create',
  },
  { name: 'nickName', label: '昵称', kind: 'text', required: true, max: 32 },
  { ...passwordField('密码'), only: 'create' },
  { name: 'state', label: '状态', kind: 'switch', dict: 'state' },
  { name: 'roleId', label: '角色', kind: 'select', useOptions: useRoleOptions, allowClear: true },
];

/** The form's fields; the unit picker only for a role holding the screen's 可选单位. */
export const userFieldsFor = (withUnit: boolean): FieldConfig[] => (withUnit ? [...userFields, orgField] : userFields);

/** A new user starts in the unit selected beside the list, if any. */
export const userCreateDefaults = (orgId: number | null): FormValues => (orgId === null ? { state: 1 } : { state: 1, orgId });

/** New users get a generated initial password, shown once after the import. */
export const userImport: ImportConfig = {
  upload: '/sys/user/import',
  template: '/sys/user/import/template',
  templateName: '用户导入模板.xlsx',
  keyLabel: '用户名',
  secretLabel: '初始密码',
  invalidates: ['User', 'RoleUser', 'Role'],
};

/**
 * A cleared role select is "no role", which the contract spells null, and a cleared unit "the
 * server decides" (null too); B is the endpoint's body.
 */
export function withRoleOrNull<B>(values: FormValues): B {
  return { ...values, roleId: values.roleId ?? null, ...('orgId' in values ? { orgId: values.orgId ?? null } : {}) } as B;
}

/** A new account's success toast: 账号添加成功 and the user name (docs/client.md, Toasts). */
export const userCreatedMsg = (_envelope: Envelope<unknown>, values: FormValues): string => `账号添加成功：${String(values.userName)}`;
