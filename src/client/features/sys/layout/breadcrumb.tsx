/**
 * Where the screen sits in the menu tree, from the authorised menu (labels as text). Each step is a
 * link, as in consoles: a menu group opens its first screen, a screen itself (e.g. to leave a
 * detail path).
 */
import { Breadcrumb } from 'antd';
import { useMemo } from 'react';
import { Link, useLocation } from 'react-router-dom';

import type { AuthorityMenu } from '../../../lib/session';
import { menuItemKey, menuTrail } from './menu-keys';

interface ShellBreadcrumbProps {
  menu: AuthorityMenu[];
  indexKey: string;
}

/** Where a step of the trail leads: a screen to itself, a group to its first screen in menu order. */
function targetOf(entry: AuthorityMenu, menu: AuthorityMenu[]): string | undefined {
  if (entry.element) return entry.path;
  const children = menu.filter((candidate) => candidate.pid === entry.id).sort((a, b) => a.sort - b.sort);
  for (const child of children) {
    const target = targetOf(child, menu);
    if (target) return target;
  }
  return undefined;
}

export function ShellBreadcrumb({ menu, indexKey }: ShellBreadcrumbProps) {
  const { pathname } = useLocation();
  const items = useMemo(
    () =>
      menuTrail(pathname, menu, indexKey).map((entry) => {
        const target = targetOf(entry, menu);
        return { key: menuItemKey(entry), title: target ? <Link to={target}>{entry.name}</Link> : entry.name };
      }),
    [pathname, menu, indexKey],
  );
  return <Breadcrumb className="shell-breadcrumb" items={items} />;
}
