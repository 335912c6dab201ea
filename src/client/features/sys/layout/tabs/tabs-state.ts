/**
 * The tab bar's state (多标签页), pure: which tabs are open, which of them have a mounted screen,
 * and how often each was refreshed. A tab is a shell route, named by its menu key. The fixed tab
 * (the index screen, normally sys/panel) is not part of `keys`: it is always first and never closes.
 */
export interface TabsState {
  /** Open tabs after the fixed one, in the order they were opened. */
  keys: string[];
  /** Tabs whose screen is mounted (shown at least once since it was opened or refreshed). */
  mounted: string[];
  /** Bumped by 刷新: the tab's screen mounts afresh. */
  generation: Record<string, number>;
}

export type TabsAction =
  | { type: 'shown'; key: string; fixedKey: string | undefined }
  | { type: 'closed'; keys: string[] }
  | { type: 'refreshed'; key: string; active: boolean }
  | { type: 'pruned'; allowed: ReadonlySet<string> };

export function initialTabs(keys: string[]): TabsState {
  return { keys, mounted: [], generation: {} };
}

const without = (list: string[], drop: ReadonlySet<string>) => list.filter((key) => !drop.has(key));

export function tabsReducer(state: TabsState, action: TabsAction): TabsState {
  switch (action.type) {
    case 'shown': {
      const keys = action.key === action.fixedKey || state.keys.includes(action.key) ? state.keys : [...state.keys, action.key];
      const mounted = state.mounted.includes(action.key) ? state.mounted : [...state.mounted, action.key];
      return keys === state.keys && mounted === state.mounted ? state : { ...state, keys, mounted };
    }
    case 'closed': {
      const drop = new Set(action.keys);
      return { ...state, keys: without(state.keys, drop), mounted: without(state.mounted, drop) };
    }
    case 'refreshed': {
      // A hidden tab just forgets its screen; it mounts afresh when next shown.
      const mounted = action.active ? state.mounted : without(state.mounted, new Set([action.key]));
      return { ...state, mounted, generation: { ...state.generation, [action.key]: (state.generation[action.key] ?? 0) + 1 } };
    }
    case 'pruned': {
      const drop = new Set([...state.keys, ...state.mounted].filter((key) => !action.allowed.has(key)));
      return drop.size === 0 ? state : { ...state, keys: without(state.keys, drop), mounted: without(state.mounted, drop) };
    }
  }
}

export type CloseCommand = 'close' | 'closeOthers' | 'closeRight' | 'closeAll';

/**
 * The tabs a close command on `target` removes from `order` (the fixed tab first), and where to
 * go when the active tab is among them.
 */
export function planClose(command: CloseCommand, target: string, order: string[], active: string | undefined) {
  const [fixed, ...closable] = order;
  const index = order.indexOf(target);
  const targets = {
    close: target === fixed ? [] : [target],
    closeOthers: closable.filter((key) => key !== target),
    closeRight: order.slice(index + 1),
    closeAll: closable,
  }[command];
  if (active === undefined || !targets.includes(active)) return { targets, next: undefined };
  if (command === 'close') {
    const remaining = order.filter((key) => !targets.includes(key));
    // The neighbour on the right takes the closed tab's place, else the one on its left.
    const next =
      order.slice(index + 1).find((key) => remaining.includes(key)) ??
      order
        .slice(0, index)
        .reverse()
        .find((key) => remaining.includes(key));
    return { targets, next };
  }
  return { targets, next: command === 'closeAll' ? fixed : target };
}

/** Local storage key of a user's open tabs: tabs are per user, never another user's. */
export const tabsStorageKey = (userName: string) => `shell.tabs.${userName}`;

export function readStoredTabs(userName: string): string[] {
  if (!userName) return [];
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(tabsStorageKey(userName)) ?? '[]');
    return Array.isArray(stored) ? stored.filter((key): key is string => typeof key === 'string') : [];
  } catch {
    return [];
  }
}

export function storeTabs(userName: string, keys: string[]): void {
  if (!userName) return;
  if (keys.length > 0) localStorage.setItem(tabsStorageKey(userName), JSON.stringify(keys));
  else localStorage.removeItem(tabsStorageKey(userName));
}
