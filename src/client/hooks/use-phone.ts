/** Whether the screen is phone-wide: the shell's menu becomes a drawer, a list's filters fold. */
import { useSyncExternalStore } from 'react';

/** Below antd's `md` breakpoint. */
const PHONE_QUERY = '(max-width: 767.98px)';

function subscribePhone(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

export function usePhone(): boolean {
  return useSyncExternalStore(subscribePhone, () => window.matchMedia(PHONE_QUERY).matches);
}
