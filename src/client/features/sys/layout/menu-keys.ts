/**
 * The sidebar's selected and open keys, recomputed from the path on every location change, browser
 * back and forward included (docs/client.md, Shell): a child item selects itself and opens its parent; a top-level
 * item selects its own path; `/` selects the screen shown there.
 */
import type { AuthorityMenu } from '../../../lib/session';
import { menuKeyOf } from './routes';

export interface MenuKeys {
  selectedKeys: string[];
  openKeys: string[];
}

/** The entry whose path is the longest prefix of the pathname, segment-wise. */
function findEntry(pathname: string, menu: AuthorityMenu[]): AuthorityMenu | undefined {
  let best: AuthorityMenu | undefined;
  for (const entry of menu) {
    if (!entry.path) continue;
    const matches = pathname === entry.path || pathname.startsWith(`${entry.path}/`);
    if (matches && (!best || entry.path.length > best.path.length)) best = entry;
  }
  return best;
}

function ancestors(entry: AuthorityMenu, menu: AuthorityMenu[]): AuthorityMenu[] {
  const found: AuthorityMenu[] = [];
  const seen = new Set<number>([entry.id]);
  let parent = menu.find((candidate) => candidate.id === entry.pid);
  while (parent && !seen.has(parent.id)) {
    seen.add(parent.id);
    found.unshift(parent);
    parent = menu.find((candidate) => candidate.id === parent?.pid);
  }
  return found;
}

/** A menu item's key: its path without the leading '/', or its id when it has no path. */
export function menuItemKey(entry: AuthorityMenu): string {
  return entry.path ? menuKeyOf(entry.path) : `menu-${entry.id}`;
}

/** The menu entry shown at the path with its ancestors, top level first (the breadcrumb); empty when none matches. */
export function menuTrail(pathname: string, menu: AuthorityMenu[], indexKey: string): AuthorityMenu[] {
  const entry = pathname === '/' ? menu.find((candidate) => menuItemKey(candidate) === indexKey) : findEntry(pathname, menu);
  return entry ? [...ancestors(entry, menu), entry] : [];
}

export function menuKeysForPath(pathname: string, menu: AuthorityMenu[], indexKey: string): MenuKeys {
  const trail = menuTrail(pathname, menu, indexKey).map(menuItemKey);
  if (trail.length === 0) return { selectedKeys: pathname === '/' ? [indexKey] : [], openKeys: [] };
  return { selectedKeys: trail.slice(-1), openKeys: trail.slice(0, -1) };
}
