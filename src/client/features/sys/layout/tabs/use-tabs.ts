/**
 * The tab bar wired to the router and the store: the URL names the active tab (so the sidebar, the
 * breadcrumb and browser back/forward agree with it); navigating to a screen opens its tab; closing
 * the active tab goes to its neighbour. The signed-in user's tabs live in the `tabs` slice, pruned
 * to the authorised menu whenever it changes.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { matchPath, useLocation, useNavigate } from 'react-router-dom';

import type { ViewName } from '../../../../config/views';
import { selectUserName, type AuthorityMenu } from '../../../../lib/session';
import { menuItemKey } from '../menu-keys';
import type { ShellRoute } from '../routes';
import { selectTabsOf, tabRefreshed, tabShown, tabsClosed, tabsPruned, type TabsState } from '../state/tabs-slice';
import { planClose, type CloseCommand } from './close-commands';

export interface OpenTab {
  key: string;
  path: string;
  title: string;
  /** The index screen's tab (normally 控制台): first, never closed. */
  fixed: boolean;
}

export interface TabPane {
  /** Changes on 刷新, so React mounts the screen afresh. */
  id: string;
  view: ViewName;
  active: boolean;
}

export type TabCommand = CloseCommand | 'refresh';

const routeAt = (pathname: string, routes: ShellRoute[], indexRoute: ShellRoute | undefined): ShellRoute | undefined =>
  pathname === '/' ? indexRoute : routes.find((route) => matchPath({ path: route.path, end: true }, pathname) !== null);

export function useTabs(routes: ShellRoute[], indexRoute: ShellRoute | undefined, menu: AuthorityMenu[]) {
  const userName = useSelector(selectUserName);
  const state = useSelector((root: { tabs: TabsState }) => selectTabsOf(root, userName));
  const dispatch = useDispatch();
  const location = useLocation();
  const navigate = useNavigate();

  const fixedKey = indexRoute?.key;
  const activeRoute = routeAt(location.pathname, routes, indexRoute);
  const activeKey = activeRoute?.key;
  const routeByKey = useMemo(() => new Map(routes.map((route) => [route.key, route])), [routes]);

  // Every navigation (back and forward too) shows its screen's tab, reopening a closed one afresh.
  useLayoutEffect(() => {
    if (activeKey) dispatch(tabShown({ userName, key: activeKey, fixedKey }));
  }, [location, activeKey, fixedKey, userName, dispatch]);

  // A menu that no longer grants a screen closes its tab. A session without a menu yet (none kept
  // from the last visit, the first answer still to come) prunes nothing.
  useEffect(() => {
    if (menu.length > 0) dispatch(tabsPruned({ userName, allowed: [...routeByKey.keys()] }));
  }, [menu, routeByKey, userName, dispatch]);

  const tabs = useMemo((): OpenTab[] => {
    const titleOf = new Map(menu.map((entry) => [menuItemKey(entry), entry.name]));
    const keys = [...(fixedKey ? [fixedKey] : []), ...state.open.filter((key) => key !== fixedKey && routeByKey.has(key))];
    return keys.map((key) => ({ key, path: routeByKey.get(key)?.path ?? '/', title: titleOf.get(key) ?? key, fixed: key === fixedKey }));
  }, [menu, fixedKey, state.open, routeByKey]);

  const panes = useMemo((): TabPane[] => {
    const open = new Set(tabs.map((tab) => tab.key));
    const keys = state.mounted.filter((key) => open.has(key));
    if (activeKey && !keys.includes(activeKey)) keys.push(activeKey);
    return keys.flatMap((key) => {
      const route = routeByKey.get(key);
      return route ? [{ id: `${key}#${state.generation[key] ?? 0}`, view: route.view, active: key === activeKey }] : [];
    });
  }, [tabs, state.mounted, state.generation, activeKey, routeByKey]);

  const select = useCallback(
    (key: string) => {
      const tab = tabs.find((candidate) => candidate.key === key);
      if (tab && key !== activeKey) void navigate(tab.path);
    },
    [tabs, activeKey, navigate],
  );

  const run = useCallback(
    (command: TabCommand, key: string) => {
      if (command === 'refresh') {
        const refresh = () => dispatch(tabRefreshed({ userName, key, active: key === activeKey }));
        const tab = tabs.find((candidate) => candidate.key === key);
        // Starting afresh drops the filters the list keeps in the URL's query too: the URL first, so
        // the screen mounted afresh reads none.
        if (tab && key === activeKey) void Promise.resolve(navigate(tab.path, { replace: true })).then(refresh);
        else refresh();
        return;
      }
      const { targets, next } = planClose(
        command,
        key,
        tabs.map((tab) => tab.key),
        activeKey,
      );
      dispatch(tabsClosed({ userName, keys: targets }));
      const nextTab = tabs.find((tab) => tab.key === next);
      if (nextTab) void navigate(nextTab.path);
    },
    [tabs, activeKey, navigate, userName, dispatch],
  );

  return { tabs, panes, activeKey, select, run };
}
