/**
 * What the signed-in role holds under a screen's menu: the authority answer lists the granted
 * resource types per menu, so a screen can hide an action the server would refuse. The server's
 * check stays the security; this is convenience (docs/API.md, Authorization).
 */
import { useCallback } from 'react';
import { useSelector } from 'react-redux';

import { selectMenu, type AuthorityMenu, type SessionRoot } from '../../lib/session';
import type { ViewName } from '../../config/views';

/**
 * True when the menu grants every one of `resourceTypes` under the menu showing `view`. A menu the
 * role does not have grants nothing; a menu entry without the list (an older server) grants
 * everything, and the server decides.
 */
function grantedIn(menu: readonly AuthorityMenu[], view: ViewName, resourceTypes: string | readonly string[]): boolean {
  const entry = menu.find((candidate) => candidate.element === view);
  if (entry === undefined) return false;
  const { granted } = entry;
  if (granted === undefined) return true;
  return typeof resourceTypes === 'string' ? granted.includes(resourceTypes) : resourceTypes.every((type) => granted.includes(type));
}

/** True when the role holds every one of `resourceTypes` under the menu showing `view`. */
export function useGranted(view: ViewName, resourceTypes: string | readonly string[]): boolean {
  return useSelector((state: SessionRoot) => grantedIn(state.session.menu, view, resourceTypes));
}

export type GrantLookup = (view: ViewName, resourceTypes: string | readonly string[]) => boolean;

/** The same answer as `useGranted` for any number of controls, e.g. every row's actions of a page. */
export function useGrantLookup(): GrantLookup {
  const menu = useSelector(selectMenu);
  return useCallback((view, resourceTypes) => grantedIn(menu, view, resourceTypes), [menu]);
}
