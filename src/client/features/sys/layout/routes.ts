/**
 * The shell's child routes, derived from the authorised menu (docs/client.md, Routes and views): an entry is routed only if
 * its state is 1 and it has a path and a view name; a view name the app does not know shows the
 * unknown screen.
 */
import { createSelector } from '@reduxjs/toolkit';

import { toViewName, type ViewName } from '../../../config/views';
import { selectMenu } from '../../../lib/session';

export const ROUTED_STATE = 1;

export interface ShellRoute {
  /** The menu key: the path without its leading '/', e.g. 'sys/panel'. */
  key: string;
  path: string;
  view: ViewName;
}

export const menuKeyOf = (path: string): string => path.replace(/^\/+/, '');

export const selectShellRoutes = createSelector([selectMenu], (menu): ShellRoute[] =>
  menu
    .filter((entry) => entry.state === ROUTED_STATE && entry.path.trim() !== '' && entry.element.trim() !== '')
    .map((entry) => ({ key: menuKeyOf(entry.path), path: entry.path, view: toViewName(entry.element) })),
);
