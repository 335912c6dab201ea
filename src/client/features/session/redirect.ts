/** Where to go after signing in: the `from` location the guard carried, if it is safe to follow. */
import type { Location } from 'react-router-dom';

import { VERIFY_ROUTE } from '../../config/views';

/** Only same-origin relative paths (no open redirect after login: docs/client.md, Session). */
export function isSafeRedirect(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}

export function redirectAfterLogin(routerState: unknown): string {
  const from = (routerState as { from?: Partial<Location> } | null)?.from;
  if (!from || typeof from.pathname !== 'string') return '/';
  const path = `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
  return isSafeRedirect(path) && from.pathname !== VERIFY_ROUTE ? path : '/';
}
