/** The menu dialog's own inputs: parent (a tree of menus), view name and icon. */
import { AutoComplete, Form, Select, Space, TreeSelect } from 'antd';
import { createElement } from 'react';

import { PAGE_SIZE_MAX } from '../../../../contract/constants';
import type { CustomControlProps } from '../../../components/list-screen';
import { MENU_ICON_NAMES, menuIcon } from '../../../components/menu-icons';
import { ROUTABLE_VIEWS } from '../../../config/views';
import { useInquireMenusQuery } from './api';

interface MenuTreeOption {
  value: number;
  title: string;
  disabled: boolean;
  children: MenuTreeOption[];
}

/** What the parent select reads of a menu (a MenuRow of config.tsx). */
interface MenuBranch {
  id: number;
  name: string;
  children?: MenuBranch[];
}

/**
 * The menu tree as TreeSelect data for choosing a parent. A menu cannot sit under itself or under
 * one of its own descendants, so while editing that branch is disabled.
 */
function menuTreeOptions(menus: readonly MenuBranch[], editingId?: number, insideEdited = false): MenuTreeOption[] {
  return menus.map((menu) => {
    const disabled = insideEdited || menu.id === editingId;
    return {
      value: menu.id,
      title: menu.name,
      disabled,
      children: menuTreeOptions(menu.children ?? [], editingId, disabled),
    };
  });
}

/** Top-level menus are few; one page of the largest size holds them all with their children. */
const ALL_MENUS = { size: PAGE_SIZE_MAX, current: 1 };

export function ParentMenuSelect({ id, value, onChange }: CustomControlProps) {
  const { data } = useInquireMenusQuery(ALL_MENUS);
  // The edit form carries the menu's id (see toForm), so its own branch can be disabled.
  const editingId = Form.useWatch<number | undefined>('id', { preserve: true });
  return (
    <TreeSelect
      id={id}
      value={value as number | null | undefined}
      onChange={(next) => onChange?.(next ?? null)}
      treeData={menuTreeOptions(data?.records ?? [], editingId)}
      treeDefaultExpandAll
      allowClear
      placeholder="不选则为顶级菜单"
    />
  );
}

const VIEW_OPTIONS = ROUTABLE_VIEWS.map((view) => ({ value: view }));

/** Any text is accepted: a name outside the registry is saved and shown as 未知视图. */
export function ViewNameInput({ id, value, onChange }: CustomControlProps) {
  return (
    <AutoComplete
      id={id}
      value={value as string | undefined}
      onChange={onChange}
      options={VIEW_OPTIONS}
      showSearch={{ filterOption: (input, option) => String(option?.value ?? '').includes(input) }}
      placeholder="例如 sys/user"
    />
  );
}

export function MenuIconLabel({ name }: { name: string }) {
  const Icon = menuIcon(name);
  return (
    <Space size={6}>
      {Icon && createElement(Icon)}
      {name}
    </Space>
  );
}

const ICON_OPTIONS = MENU_ICON_NAMES.map((name) => ({ value: name, label: <MenuIconLabel name={name} /> }));

export function MenuIconSelect({ id, value, onChange }: CustomControlProps) {
  return (
    <Select
      id={id}
      value={(value as string | undefined) || undefined}
      onChange={(next: string | undefined) => onChange?.(next ?? '')}
      options={ICON_OPTIONS}
      allowClear
      placeholder="请选择图标"
    />
  );
}
