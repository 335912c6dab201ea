/**
 * What the signed-in role holds under a screen's menu: the authority answer lists the granted
 * resource types per menu, so a screen can hide an action the server would refuse. The server's
 * check stays the security; this is convenience (docs/API.md, Authorization).
 */
import { useSelector } from 'react-redux';

import { selectMenuEntry, type SessionRoot } from '../../lib/session';

/**
 * True when the role holds every one of `resourceTypes` under the menu showing `view`. A menu the
 * role does not have grants nothing; a menu entry without the list (an older server) grants
 * everything, and the server decides.
 */
export function useGranted(view: string, resourceTypes: string | readonly string[]): boolean {
  return useSelector((state: SessionRoot) => {
    const entry = selectMenuEntry(state, view);
    if (entry === undefined) return false;
    const { granted } = entry;
    if (granted === undefined) return true;
    return typeof resourceTypes === 'string' ? granted.includes(resourceTypes) : resourceTypes.every((type) => granted.includes(type));
  });
}
