/**
 * The tab bar's state (多标签页), per user: which tabs each user has open, which of them have a
 * mounted screen, and how often each was refreshed. A tab is a shell route, named by its menu key.
 * The fixed tab (the index screen, normally sys/panel) is not part of `open`: it is always first
 * and never closes. The open tabs are kept in local storage (`shell.tabs.<userName>`), so they
 * survive a reload; the rest starts afresh.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import { sessionEnded } from '../../../../lib/session';
import { readPerUser } from './shell-storage';

export interface UserTabs {
  /** Open tabs after the fixed one, in the order they were opened. */
  open: string[];
  /** Tabs whose screen is mounted (shown at least once since it was opened or refreshed). */
  mounted: string[];
  /** Bumped by 刷新: the tab's screen mounts afresh. */
  generation: Record<string, number>;
}

/** Each user's tabs under their userName: one user's tabs are never another's. */
export type TabsState = Record<string, UserTabs>;

type ForUser<P> = P & { userName: string };

export const NO_TABS: UserTabs = { open: [], mounted: [], generation: {} };

const restoredTabs = (stored: unknown): UserTabs | undefined =>
  Array.isArray(stored) ? { ...NO_TABS, open: stored.filter((key): key is string => typeof key === 'string') } : undefined;

const without = (list: string[], drop: ReadonlySet<string>) => list.filter((key) => !drop.has(key));

/** Runs `change` on the user's tabs; a call without a user (no session) changes nothing. */
function forUser<P>(change: (tabs: UserTabs, payload: ForUser<P>) => UserTabs) {
  return (state: TabsState, { payload }: PayloadAction<ForUser<P>>) => {
    if (!payload.userName) return;
    const tabs = state[payload.userName] ?? NO_TABS;
    const changed = change(tabs, payload);
    if (changed !== tabs) state[payload.userName] = changed;
  };
}

export const tabsSlice = createSlice({
  name: 'tabs',
  initialState: (): TabsState => readPerUser('tabs', restoredTabs),
  reducers: {
    /** A navigation showed the tab's screen: the tab opens (after the others) and its screen mounts. */
    shown: forUser<{ key: string; fixedKey: string | undefined }>((tabs, { key, fixedKey }) => {
      const open = key === fixedKey || tabs.open.includes(key) ? tabs.open : [...tabs.open, key];
      const mounted = tabs.mounted.includes(key) ? tabs.mounted : [...tabs.mounted, key];
      return open === tabs.open && mounted === tabs.mounted ? tabs : { ...tabs, open, mounted };
    }),
    closed: forUser<{ keys: string[] }>((tabs, { keys }) => {
      const drop = new Set(keys);
      return { ...tabs, open: without(tabs.open, drop), mounted: without(tabs.mounted, drop) };
    }),
    /** 刷新: the screen mounts afresh; a hidden tab just forgets its screen until it is shown again. */
    refreshed: forUser<{ key: string; active: boolean }>((tabs, { key, active }) => ({
      ...tabs,
      mounted: active ? tabs.mounted : without(tabs.mounted, new Set([key])),
      generation: { ...tabs.generation, [key]: (tabs.generation[key] ?? 0) + 1 },
    })),
    /** The authorised menu changed: tabs of screens it no longer grants close. */
    pruned: forUser<{ allowed: string[] }>((tabs, { allowed }) => {
      const drop = new Set([...tabs.open, ...tabs.mounted].filter((key) => !allowed.includes(key)));
      return drop.size === 0 ? tabs : { ...tabs, open: without(tabs.open, drop), mounted: without(tabs.mounted, drop) };
    }),
  },
  extraReducers: (builder) => {
    // Local storage is cleared with the session; so are the tabs it held.
    builder.addCase(sessionEnded, () => ({}));
  },
});

export const { shown: tabShown, closed: tabsClosed, refreshed: tabRefreshed, pruned: tabsPruned } = tabsSlice.actions;

export const selectTabsOf = (state: { tabs: TabsState }, userName: string): UserTabs => state.tabs[userName] ?? NO_TABS;
