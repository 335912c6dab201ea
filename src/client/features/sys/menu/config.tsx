/**
 * What the menu screen shows and edits: the menu tree's filters and columns, the menu dialog's
 * fields and the conversions between a menu record and the form.
 */
import { Space, Tag } from 'antd';

import type { BodyOf, DataOf } from '../../../../contract';
import type { ColumnConfig, FieldConfig, FormValues, SortKeyOf } from '../../../components/list-screen';
import { toViewName } from '../../../config/views';
import { MenuIconLabel, MenuIconSelect, ParentMenuSelect, ViewNameInput } from './menu-controls';

/** One menu as the list answers it: top-level menus carry their descendants under `children`. */
export type MenuRow = DataOf<'/sys/menu/inquire'>['records'][number];

export const menuFilters: FieldConfig[] = [
  { name: 'name', label: '菜单名称', kind: 'text', max: 32 },
  { name: 'state', label: '状态', kind: 'select', dict: 'state', numeric: true },
];

/** A view name the app does not know is saved as typed and flagged here. */
function ViewName({ element }: { element: string }) {
  if (element === '') return null;
  return (
    <Space size={4}>
      {element}
      {toViewName(element) !== element && <Tag color="warning">未知视图</Tag>}
    </Space>
  );
}

/** Sorting orders the top-level menus and, under each, its children (the server keeps the tree). */
export const menuColumns: ColumnConfig<MenuRow, SortKeyOf<BodyOf<'/sys/menu/inquire'>>>[] = [
  { title: '菜单名称', dataIndex: 'name', sortKey: 'name' },
  { title: '图标', dataIndex: 'icon', render: (icon: string) => (icon ? <MenuIconLabel name={icon} /> : null) },
  { title: '路由路径', dataIndex: 'path', sortKey: 'path' },
  { title: '视图', dataIndex: 'element', render: (element: string) => <ViewName element={element} /> },
  { title: '排序', dataIndex: 'sort', width: 70, sortKey: 'sort' },
  { title: '状态', dataIndex: 'state', dict: 'state', width: 80, sortKey: 'state' },
  { title: '授权', dataIndex: 'isAuth', dict: 'isAuth', width: 100 },
];

type MenuCreation = BodyOf<'/sys/menu/creation'>;
type MenuEdit = BodyOf<'/sys/menu/edit'>;

export const menuFields: FieldConfig[] = [
  { name: 'pid', label: '上级菜单', kind: 'select', control: ParentMenuSelect },
  { name: 'name', label: '菜单名称', kind: 'text', required: true, max: 32 },
  // Path and view-name formats live in the contract's schema, which stays out of the browser: the
  // server checks them and its msg names the rule.
  { name: 'path', label: '路由路径', kind: 'text', max: 100, placeholder: '例如 /sys/user' },
  { name: 'element', label: '视图', kind: 'text', max: 64, control: ViewNameInput },
  { name: 'icon', label: '图标', kind: 'select', control: MenuIconSelect },
  { name: 'sort', label: '排序', kind: 'number', required: true, min: 0, max: 9999 },
  { name: 'state', label: '状态', kind: 'switch', dict: 'state' },
  { name: 'isAuth', label: '是否需要授权', kind: 'switch', dict: 'isAuth', switchLabels: ['需要授权', '公开'] },
];

export const menuDefaults: FormValues = { pid: null, path: '', element: '', icon: '', sort: 0, state: 1, isAuth: 1 };

/** The form holds the menu's id too, so the parent select can keep the menu out of its own branch. */
export function menuToForm({ id, pid, name, path, element, icon, sort, state, isAuth }: MenuRow): FormValues {
  return { id, pid, name, path, element, icon, sort, state, isAuth };
}

function menuBody(values: FormValues): MenuCreation {
  return {
    // A cleared select leaves undefined; the server wants null for a top-level menu.
    pid: (values.pid as number | null | undefined) ?? null,
    name: values.name as string,
    path: (values.path as string | undefined) ?? '',
    element: (values.element as string | undefined) ?? '',
    icon: (values.icon as string | undefined) ?? '',
    sort: values.sort as number,
    state: values.state as number,
    isAuth: values.isAuth === 1 ? 1 : 0,
  };
}

export const menuFromForm = {
  create: menuBody,
  edit: (values: FormValues, row: MenuRow): MenuEdit => ({ ...menuBody(values), id: row.id, version: row.version }),
};
