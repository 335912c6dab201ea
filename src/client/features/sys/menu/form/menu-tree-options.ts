/**
 * The menu tree as TreeSelect data for choosing a parent. A menu cannot sit under itself or under
 * one of its own descendants, so while editing that branch is disabled.
 */
import type { MenuNode } from '../../../../../contract/sys/menu';

export interface MenuTreeOption {
  value: number;
  title: string;
  disabled: boolean;
  children: MenuTreeOption[];
}

export function menuTreeOptions(menus: readonly MenuNode[], editingId?: number, insideEdited = false): MenuTreeOption[] {
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
