/**
 * The hotel's locations (building -> floor -> room), read by several screens: the location screen
 * edits them, the device screen filters and places devices by them, the notification screens scope
 * rules and windows by them. Each screen reads them at its own path under its own grant
 * (picker-sources.ts); nothing is asked without it. The whole tree comes in one answer (a hotel has
 * hundreds of rows); location edits invalidate `Location`, so every reader reloads it.
 */
import type { DataOf } from '../../../contract';
import { api } from '../../lib/http/api';
import { keyedGetQuery } from '../../lib/http/endpoints';
import { usePickerSource, type LocationTreeKey, type PickerView } from '../picker-sources';

export type LocationRow = DataOf<'GET /hotel/location/tree'>[number];
/** A screen with a location tree of its own. */
export type LocationTreeView = PickerView<'location'>;

export interface LocationNode {
  location: LocationRow;
  children: LocationNode[];
}

const locationTreeApi = api.injectEndpoints({
  endpoints: (build) => ({
    locationTree: keyedGetQuery<LocationTreeKey>(build, ['Location']),
  }),
});

/** The locations as the screen reads them, flat in the server's order; nothing is asked without the grant. */
export function useLocationTreeQuery(view: LocationTreeView) {
  const { key, granted } = usePickerSource('location', view);
  return { granted, ...locationTreeApi.useLocationTreeQuery(key, { skip: !granted }) };
}

/** The flat location list as a tree: children under their parent, in the server's order (sort, name). */
export function buildTree(rows: readonly LocationRow[]): LocationNode[] {
  const nodes = new Map(rows.map((location) => [location.id, { location, children: [] as LocationNode[] }]));
  const roots: LocationNode[] = [];
  for (const node of nodes.values()) {
    const parent = nodes.get(node.location.parentId);
    // A node whose parent is missing still shows, at the top, rather than vanishing.
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}
