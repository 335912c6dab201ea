/**
 * The screens' picker reads (src/contract/pickers.ts) answered like their owners' reads: a fixture's
 * unit tree or location tree answers 组织管理's or 位置管理's own path and every screen's path alike.
 */
import { http, type HttpHandler, type HttpResponseResolver } from 'msw';

import type { DataOf } from '../../../../src/contract';
import { PICKERS, type PickerKind } from '../../../../src/contract/pickers';
import { seedAreas } from '../../../../src/server/services/builtins/catalogue';
import { adminMenu, api, ok } from '../handlers';
import { DICT_MENU } from './list-crud';

type AuthorityMenu = DataOf<'GET /sys/menu/authority'>[number];

/** The owning screen's read of each kind; channels have none of the same shape (通知渠道's list pages). */
const OWNER: Record<PickerKind, string[]> = { org: ['/sys/org/tree'], location: ['/hotel/location/tree'], channel: [] };

/** The paths every screen reads a kind of picker at. */
export const pickerPaths = (kind: PickerKind): string[] =>
  Object.entries(PICKERS)
    .filter(([, of]) => of === kind)
    .map(([key]) => key.replace(/^GET /, ''));

/** One answer for the owner's read and every screen's picker of a kind. */
export const pickerHandlers = (kind: PickerKind, resolver: HttpResponseResolver): HttpHandler[] =>
  [...OWNER[kind], ...pickerPaths(kind)].map((path) => http.get(api(path), resolver));

const seedMenus = seedAreas.flatMap((area) => area.children);

/**
 * The menu of a role holding each screen's seeded resources but 可选单位: its forms have no unit
 * picker and read no unit tree (the forms these tests fill were written before screens had one).
 */
export const withoutUnitPicker = (menu: AuthorityMenu[]): AuthorityMenu[] =>
  menu.map((entry) => {
    const seeded = seedMenus.find((candidate) => candidate.element === entry.element);
    return seeded ? { ...entry, granted: seeded.resources.map((resource) => resource.type).filter((type) => type !== 'api_orgTree') } : entry;
  });

/** The list fixtures' menu (menuHandlers) without 可选单位: for tests of forms without a unit picker. */
export const adminWithoutUnitPicker = () => http.get(api('/sys/menu/authority'), () => ok(withoutUnitPicker([...adminMenu, DICT_MENU])));
