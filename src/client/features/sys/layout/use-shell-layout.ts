/** How the shell lays itself out: a drawer for the menu on a phone, a collapsible sidebar elsewhere. */
import { useCallback } from 'react';
import { useDispatch, useSelector } from 'react-redux';

import { selectUserName } from '../../../lib/session';
import { selectSidebarCollapsed, sidebarCollapsed, sidebarExpanded, type SidebarState } from './state/sidebar-slice';

export { usePhone } from '../../../hooks/use-phone';

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
