/** What the user screen shows and edits: its filters, columns and form fields (docs/api/system.md, Users). */
import { PASSWORD_MAX, PASSWORD_MIN, USER_NAME_PATTERN, type Envelope } from '../../../../contract/constants';
import type { BodyOf, DataOf } from '../../../../contract';
import type { ColumnConfig, FieldConfig, FormValues, ImportConfig, SelectOption, SortKeyOf } from '../../../components/list-screen';
import { formatTime } from '../../../lib/time';
import { ROLE_CHOICES_REQUEST, useUserRoleChoicesQuery } from './api';

export type UserRow = DataOf<'/sys/user/inquire'>['records'][number];
type UserSortKey = SortKeyOf<BodyOf<'/sys/user/inquire'>>;

export function useRoleOptions(): SelectOption[] {
  const { data } = useUserRoleChoicesQuery(ROLE_CHOICES_REQUEST);
  return (data?.records ?? []).map((role) => ({ value: role.id, label: role.name }));
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

export const userColumns: ColumnConfig<UserRow, UserSortKey>[] = [
  { title: '用户名', dataIndex: 'userName', sortKey: 'userName' },
  { title: '昵称', dataIndex: 'nickName', sortKey: 'nickName' },
  { title: '状态', dataIndex: 'state', dict: 'state', sortKey: 'state' },
  { title: '角色', dataIndex: 'roleName', sortKey: 'roleName' },
  { title: '创建时间', dataIndex: 'createdAt', sortKey: 'createdAt', render: (value: number) => formatTime(value) },
];

export const userFields: FieldConfig[] = [
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

export const userCreateDefaults: FormValues = { state: 1 };

/** New users get a generated initial password, shown once after the import. */
export const userImport: ImportConfig = {
  upload: '/sys/user/import',
  template: '/sys/user/import/template',
  templateName: '用户导入模板.xlsx',
  keyLabel: '用户名',
  secretLabel: '初始密码',
  invalidates: ['User', 'RoleUser', 'Role'],
};

/** A cleared role select is "no role", which the contract spells null; B is the endpoint's body. */
export function withRoleOrNull<B>(values: FormValues): B {
  return { ...values, roleId: values.roleId ?? null } as B;
}

/** A new account's success toast: 账号添加成功 and the user name (docs/client.md, Toasts). */
export const userCreatedMsg = (_envelope: Envelope<unknown>, values: FormValues): string => `账号添加成功：${String(values.userName)}`;
