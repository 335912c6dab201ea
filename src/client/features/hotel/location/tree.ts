/** The flat location list as a tree: children under their parent, in the server's order (sort, name). */
import type { DataOf } from '../../../../contract';

export type LocationRow = DataOf<'GET /hotel/location/tree'>[number];
export type LocationKind = 'building' | 'floor' | 'room';

export interface LocationNode {
  location: LocationRow;
  children: LocationNode[];
}

export const KIND_LABEL: Record<LocationKind, string> = { building: '楼栋', floor: '楼层', room: '房间' };
/** The kind a new child of each kind is; rooms have none. */
export const CHILD_KIND: Record<LocationKind, LocationKind | null> = { building: 'floor', floor: 'room', room: null };

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
