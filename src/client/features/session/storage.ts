/**
 * The session in local storage. token, userName and nickName each live under their own key as the
 * bare value, so `localStorage.token` is the token itself; the menu is JSON under `menu`, so a
 * reload renders the shell at once (the authority fetch then replaces it). Empty values are removed
 * rather than stored. The session listener writes on every change (listeners.ts); the slice reads
 * once, as its initial state.
 */
import type { AuthorityMenu, SessionState } from '../../lib/session';

const TEXT_FIELDS = ['token', 'userName', 'nickName'] as const;
const MENU_KEY = 'menu';

function readMenu(): AuthorityMenu[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(MENU_KEY) ?? '[]');
    return Array.isArray(stored) ? (stored as AuthorityMenu[]) : [];
  } catch {
    return [];
  }
}

export function loadSession(): SessionState {
  const [token, userName, nickName] = TEXT_FIELDS.map((key) => localStorage.getItem(key) ?? '');
  return { token, userName, nickName, menu: readMenu() };
}

export function saveSession(session: SessionState): void {
  for (const key of TEXT_FIELDS) {
    if (session[key]) localStorage.setItem(key, session[key]);
    else localStorage.removeItem(key);
  }
  if (session.menu.length > 0) localStorage.setItem(MENU_KEY, JSON.stringify(session.menu));
  else localStorage.removeItem(MENU_KEY);
}
