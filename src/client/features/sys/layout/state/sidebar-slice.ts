/**
 * The sidebar, per user: collapsed to its icons or not. Kept in local storage
 * (`shell.sidebar.<userName>`) while collapsed, so it survives a reload.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import { sessionEnded } from '../../../../lib/session';
import { readPerUser } from './shell-storage';

export interface UserSidebar {
  collapsed: boolean;
}

/** Each user's sidebar under their userName. */
export type SidebarState = Record<string, UserSidebar>;

const restoredSidebar = (stored: unknown): UserSidebar | undefined =>
  typeof stored === 'object' && stored !== null && (stored as UserSidebar).collapsed === true ? { collapsed: true } : undefined;

function setCollapsed(collapsed: boolean) {
  return (state: SidebarState, { payload }: PayloadAction<{ userName: string }>) => {
    if (payload.userName) state[payload.userName] = { collapsed };
  };
}

export const sidebarSlice = createSlice({
  name: 'sidebar',
  initialState: (): SidebarState => readPerUser('sidebar', restoredSidebar),
  reducers: {
    collapsed: setCollapsed(true),
    expanded: setCollapsed(false),
  },
  extraReducers: (builder) => {
    builder.addCase(sessionEnded, () => ({}));
  },
});

export const { collapsed: sidebarCollapsed, expanded: sidebarExpanded } = sidebarSlice.actions;

export const selectSidebarCollapsed = (state: { sidebar: SidebarState }, userName: string): boolean => state.sidebar[userName]?.collapsed ?? false;
