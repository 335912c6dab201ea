/** The menu dialog: its fields and the conversions between a menu record and the form. */
import type { BodyOf } from '../../../../../contract';
import type { FieldConfig, FormValues } from '../../../../components/list-screen';
import type { MenuRow } from '../menu-row';
import { MenuIconSelect, ParentMenuSelect, ViewNameInput } from './menu-controls';

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
