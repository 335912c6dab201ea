/** The sidebar: the authorised menu as a tree, its keys following the location. */
import { Menu, type MenuProps } from 'antd';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

import type { AuthorityMenu } from '../../../lib/session';
import { menuIcon } from '../../../components/menu-icons';
import { menuItemKey, menuKeysForPath } from './menu-keys';

type MenuItem = Required<MenuProps>['items'][number];

const bySortThenId = (a: AuthorityMenu, b: AuthorityMenu) => a.sort - b.sort || a.id - b.id;

/** pid null = top level; children under their parent, ordered by sort. Labels render as text. */
export function buildMenuItems(menu: AuthorityMenu[]): MenuItem[] {
  const known = new Set(menu.map((entry) => entry.id));
  const childrenOf = (pid: number | null): MenuItem[] =>
    menu
      .filter((entry) => (pid === null ? entry.pid === null || !known.has(entry.pid) : entry.pid === pid))
      .sort(bySortThenId)
      .map((entry) => {
        const Icon = menuIcon(entry.icon);
        const children = childrenOf(entry.id);
        const item = { key: menuItemKey(entry), label: entry.name, icon: Icon ? <Icon /> : undefined };
        return children.length > 0 ? { ...item, children } : item;
      });
  return childrenOf(null);
}

/**
 * The key of the history entry the browser shows, which react-router keeps in the entry's state
 * (the same key as `location.key` once that navigation is committed); the committed location's key
 * under a router that does not use the browser's history.
 */
function browserEntryKey(committed: { key: string }): string {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null && typeof (state as { key?: unknown }).key === 'string' ? (state as { key: string }).key : committed.key;
}

interface SideMenuProps {
  menu: AuthorityMenu[];
  indexKey: string;
  /** The Sider is collapsed to icons: submenus open as pop-ups on demand, never by navigation. */
  collapsed?: boolean;
}

export function SideMenu({ menu, indexKey, collapsed = false }: SideMenuProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const items = useMemo(() => buildMenuItems(menu), [menu]);
  const keys = useMemo(() => menuKeysForPath(location.pathname, menu, indexKey), [location.pathname, menu, indexKey]);
  // Submenus the user toggled stay as toggled until the next navigation recomputes them (back and
  // forward included, even to an entry seen before). A toggle belongs to the history entry the
  // browser was at when it was made: the router commits a navigation in a transition, so while a
  // screen is still rendering the browser is already at the new entry and `location` is the old
  // one; a submenu opened in that moment must not fold when the screen arrives.
  const [toggled, setToggled] = useState<{ entryKey: string; collapsed: boolean; openKeys: string[] } | null>(null);
  const [committed, setCommitted] = useState(location);
  if (committed !== location) {
    setCommitted(location);
    if (toggled && toggled.entryKey !== location.key) setToggled(null);
  }
  // Collapsing or expanding the sidebar drops the toggles too.
  const ownToggle = toggled !== null && toggled.collapsed === collapsed;
  const openKeys = ownToggle ? toggled.openKeys : collapsed ? [] : keys.openKeys;

  const pathByKey = useMemo(() => new Map(menu.map((entry) => [menuItemKey(entry), entry.path])), [menu]);

  return (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={keys.selectedKeys}
      openKeys={openKeys}
      onOpenChange={(next) => setToggled({ entryKey: browserEntryKey(location), collapsed, openKeys: next })}
      onClick={({ key }) => {
        const path = pathByKey.get(key);
        if (path) void navigate(path);
      }}
    />
  );
}
