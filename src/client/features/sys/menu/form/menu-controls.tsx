/** The menu dialog's own inputs: parent (a tree of menus), view name and icon. */
import { AutoComplete, Form, Select, Space, TreeSelect } from 'antd';
import { createElement } from 'react';

import { PAGE_SIZE_MAX } from '../../../../../contract/constants';
import type { CustomControlProps } from '../../../../components/list-screen';
import { ROUTABLE_VIEWS } from '../../../../config/views';
import { MENU_ICON_NAMES, menuIcon } from '../../../../components/menu-icons';
import { useInquireMenusQuery } from '../api';
import { menuTreeOptions } from './menu-tree-options';

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
