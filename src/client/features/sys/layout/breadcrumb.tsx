/** Where the screen sits in the menu tree, from the authorised menu (labels as text). */
import { Breadcrumb } from 'antd';
import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';

import type { AuthorityMenu } from '../../../lib/session';
import { menuItemKey, menuTrail } from './menu-keys';

interface ShellBreadcrumbProps {
  menu: AuthorityMenu[];
  indexKey: string;
}

export function ShellBreadcrumb({ menu, indexKey }: ShellBreadcrumbProps) {
  const { pathname } = useLocation();
  const items = useMemo(() => menuTrail(pathname, menu, indexKey).map((entry) => ({ key: menuItemKey(entry), title: entry.name })), [pathname, menu, indexKey]);
  return <Breadcrumb className="shell-breadcrumb" items={items} />;
}
