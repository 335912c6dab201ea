/**
 * 搜索菜单: a dialog over the screens the user may open (the routed entries of the authorised
 * menu), opened from the header or with Ctrl+K / ⌘K. The dialog and its pinyin matching are a
 * lazy chunk: the pinyin dictionary is large and only needed once someone searches.
 */
import { SearchOutlined } from '@ant-design/icons';
import { Button, Spin } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';

import type { AuthorityMenu } from '../../../../lib/session';
import { menuItemKey, menuTrail } from '../menu-keys';
import type { ShellRoute } from '../routes';
import type { SearchEntry } from './search-entry';

const SearchDialog = lazy(() => import(/* webpackChunkName: "menu-search" */ './search-dialog'));

interface MenuSearchProps {
  routes: ShellRoute[];
  menu: AuthorityMenu[];
  /** Only the icon, on a narrow header. */
  compact: boolean;
}

export function MenuSearch({ routes, menu, compact }: MenuSearchProps) {
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so the dialog can play its closing animation.
  const [used, setUsed] = useState(false);
  const navigate = useNavigate();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setUsed(true);
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const entries = useMemo((): SearchEntry[] => {
    const nameOf = new Map(menu.map((entry) => [menuItemKey(entry), entry.name]));
    return routes.map((route) => ({
      key: route.key,
      path: route.path,
      name: nameOf.get(route.key) ?? route.key,
      trail: menuTrail(route.path, menu, route.key)
        .slice(0, -1)
        .map((entry) => entry.name)
        .join(' / '),
    }));
  }, [routes, menu]);

  return (
    <>
      <Button
        type="text"
        icon={<SearchOutlined />}
        aria-label="搜索菜单"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        {compact ? null : '搜索菜单'}
      </Button>
      {used && (
        <Suspense fallback={<Spin fullscreen />}>
          <SearchDialog
            open={open}
            entries={entries}
            onClose={() => setOpen(false)}
            onOpen={(entry) => {
              setOpen(false);
              void navigate(entry.path);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
