import type { ComponentType } from 'react';

/**
 * View names a menu element may use to become a screen of the shell. `sys/layout` (the shell) and
 * `sys/verify` (the login) are views of the app itself, not of the shell: as menu elements they show
 * the unknown screen, like any other name missing here.
 */
export const ROUTABLE_VIEWS = [
  'hotel/advanced',
  'hotel/alarm',
  'hotel/device',
  'hotel/location',
  'monitor/api-docs',
  'monitor/channel',
  'monitor/login',
  'monitor/maintenance',
  'monitor/message',
  'monitor/online',
  'monitor/operation',
  'monitor/rule',
  'sys/dict',
  'sys/menu',
  'sys/org',
  'sys/panel',
  'sys/role',
  'sys/schedule',
  'sys/unknown',
  'sys/user',
] as const;

export type ViewName = (typeof ROUTABLE_VIEWS)[number];

export const UNKNOWN_VIEW: ViewName = 'sys/unknown';
/** The menu key selected by default and the screen shown at `/` when authorised (docs/client.md, Routes and views). */
export const DEFAULT_VIEW: ViewName = 'sys/panel';

/** The alarm screen: its own, and the shell's live indicator reads its grants and path. */
export const ALARM_VIEW: ViewName = 'hotel/alarm';

export const VERIFY_ROUTE = '/sys/verify';

export function toViewName(element: string): ViewName {
  return (ROUTABLE_VIEWS as readonly string[]).includes(element) ? (element as ViewName) : UNKNOWN_VIEW;
}

/** Every routable view's screen (app/view-registry.ts); a default export of the feature folder. */
export type ViewRegistry = Record<ViewName, ComponentType>;
