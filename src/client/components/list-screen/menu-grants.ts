/**
 * What the signed-in role holds under a screen's menu: the authority answer lists the granted
 * resource types per menu, so a screen can hide an action the server would refuse. The server's
 * check stays the security; this is convenience (docs/API.md, Authorization).
 */
import { useSelector } from 'react-redux';

import { selectMenuEntry, type SessionRoot } from '../../lib/session';

/** True when the role holds `resourceType` under the menu showing `view`, or when that is unknown. */
export function useGranted(view: string, resourceType: string): boolean {
  return useSelector((state: SessionRoot) => {
    const entry = selectMenuEntry(state, view);
    return entry?.granted === undefined || entry.granted.includes(resourceType);
  });
}
