/** How the shell lays itself out: a drawer for the menu on a phone, a collapsible sidebar elsewhere. */
import { useCallback, useSyncExternalStore } from 'react';
import { useDispatch, useSelector } from 'react-redux';

import { selectUserName } from '../../../lib/session';
import { selectSidebarCollapsed, sidebarCollapsed, sidebarExpanded, type SidebarState } from './state/sidebar-slice';

/** Below antd's `md` breakpoint the sidebar becomes a drawer. */
const PHONE_QUERY = '(max-width: 767.98px)';

function subscribePhone(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

export function usePhone(): boolean {
  return useSyncExternalStore(subscribePhone, () => window.matchMedia(PHONE_QUERY).matches);
}

/** The signed-in user's sidebar (the `sidebar` slice): collapsed or not, and the header button's toggle. */
export function useSiderCollapsed(): [boolean, () => void] {
  const userName = useSelector(selectUserName);
  const collapsed = useSelector((root: { sidebar: SidebarState }) => selectSidebarCollapsed(root, userName));
  const dispatch = useDispatch();
  const toggle = useCallback(() => {
    dispatch(collapsed ? sidebarExpanded({ userName }) : sidebarCollapsed({ userName }));
  }, [collapsed, userName, dispatch]);
  return [collapsed, toggle];
}
