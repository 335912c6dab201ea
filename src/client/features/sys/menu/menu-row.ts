import type { MenuNode } from '../../../../contract/sys/menu';

/** One menu as the list answers it: top-level menus carry their descendants under `children`. */
export type MenuRow = MenuNode;
