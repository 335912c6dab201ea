/**
 * The one way a screen offers an action: each control names the resource (its type under the
 * screen's menu, e.g. api_keyReset) guarding the endpoint it calls, and shows only when the
 * signed-in role holds it. The server's check stays the security; this keeps a screen from offering
 * what the server would refuse (docs/client.md, Controls by grant).
 */
import type { ReactNode } from 'react';

import { useGranted } from './menu-grants';
import type { ViewName } from '../../config/views';

export interface PermittedProps {
  /** The menu element whose resources are meant, e.g. 'hotel/device'. */
  view: ViewName;
  /** The resource type guarding the control's endpoint, e.g. 'api_keyReset'; several when it calls several (all needed). */
  resource: string | readonly string[];
  children: ReactNode;
}

export function Permitted({ view, resource, children }: PermittedProps) {
  return useGranted(view, resource) ? children : null;
}
