/**
 * The shell's state, for the store (app/store.ts): the `tabs` and `sidebar` slices, each per user,
 * and the middleware that keeps them in local storage. The shell itself is a lazy chunk; this small
 * part is in the store from the start.
 */
import { keepPerUser } from './shell-storage';
import { sidebarSlice, type SidebarState } from './sidebar-slice';
import { tabsSlice, type TabsState } from './tabs-slice';

export { sidebarSlice, tabsSlice };

export const shellStorageMiddleware = [
  keepPerUser({
    kind: 'tabs',
    select: (state: { tabs: TabsState }) => state.tabs,
    toStored: (tabs) => (tabs.open.length > 0 ? tabs.open : undefined),
  }),
  keepPerUser({
    kind: 'sidebar',
    select: (state: { sidebar: SidebarState }) => state.sidebar,
    toStored: (sidebar) => (sidebar.collapsed ? sidebar : undefined),
  }),
] as const;
