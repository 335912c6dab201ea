/**
 * What the signed-in role holds under a screen's menu: the authority answer lists the granted
 * resource types per menu, so a screen can hide an action the server would refuse. The server's
 * check stays the security; this is convenience (DESIGN 4).
 */
import { useSelector } from 'react-redux';

import type { DataOf } from '../../../contract';

type AuthorityMenu = DataOf<'GET /sys/menu/authority'>[number];

/** Only the session's menu is read here; a structural type keeps shared code free of features. */
interface WithMenu {
  session: { menu: AuthorityMenu[] };
}

/** True when the role holds `resourceType` under the menu showing `view`, or when that is unknown. */
export function useGranted(view: string, resourceType: string): boolean {
  return useSelector((state: WithMenu) => {
    const entry = state.session.menu.find((menu) => menu.element === view);
    return entry?.granted === undefined || entry.granted.includes(resourceType);
  });
}
