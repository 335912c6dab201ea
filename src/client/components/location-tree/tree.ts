/**
 * The hotel's locations (building -> floor -> room), read by several screens: the location screen
 * edits them, the device screen filters and places devices by them. The whole tree comes in one
 * answer (a hotel has hundreds of rows); location edits invalidate `Location`, so every reader
 * reloads it.
 */
import type { DataOf } from '../../../contract';
import { api } from '../../lib/http/api';
import { getQuery } from '../../lib/http/endpoints';

export type LocationRow = DataOf<'GET /hotel/location/tree'>[number];

export interface LocationNode {
  location: LocationRow;
  children: LocationNode[];
}

const locationTreeApi = api.injectEndpoints({
  endpoints: (build) => ({
    locationTree: getQuery(build, 'GET /hotel/location/tree', { providesTags: ['Location'] }),
  }),
});

export const { useLocationTreeQuery } = locationTreeApi;

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
