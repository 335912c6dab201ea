/** How the shell lays itself out: a drawer for the menu on a phone, a collapsible sidebar elsewhere. */
import { useCallback, useState, useSyncExternalStore } from 'react';

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

/** Remembered in this browser (signing out clears local storage, SPEC 4, and with it this). */
export const SIDER_COLLAPSED_KEY = 'shell.siderCollapsed';

export function useSiderCollapsed(): [boolean, () => void] {
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(SIDER_COLLAPSED_KEY) === '1');
  const toggle = useCallback(() => {
    setCollapsed((previous) => {
      if (previous) localStorage.removeItem(SIDER_COLLAPSED_KEY);
      else localStorage.setItem(SIDER_COLLAPSED_KEY, '1');
      return !previous;
    });
  }, []);
  return [collapsed, toggle];
}
