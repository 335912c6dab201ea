/**
 * The organisation tree (group -> region -> hotel -> department) as the caller's data scope shows it,
 * read by every screen that places or filters by unit: 组织管理 edits it, the user screen filters by
 * it, forms pick a unit from it. The read is 组织管理's 组织树 resource: a role without it gets no
 * tree and no pickers (the server then places new rows in the caller's own unit), rather than a
 * refusal toast on every screen that would show one.
 */
import type { DataOf } from '../../../contract';
import { api } from '../../lib/http/api';
import { getQuery } from '../../lib/http/endpoints';
import { useGranted } from '../list-screen';

export type OrgRow = DataOf<'GET /sys/org/tree'>[number];

export interface OrgNode {
  unit: OrgRow;
  children: OrgNode[];
}

/** The menu element and resource type whose grant lets a role read the tree. */
const ORG_VIEW = 'sys/org';
const ORG_TREE_RESOURCE = 'api_inquire';

const orgTreeApi = api.injectEndpoints({
  endpoints: (build) => ({
    orgTree: getQuery(build, 'GET /sys/org/tree', { providesTags: ['Org'] }),
  }),
});

/** Whether the signed-in role may read the tree (组织管理 → 组织树). */
export const useOrgTreeGranted = (): boolean => useGranted(ORG_VIEW, ORG_TREE_RESOURCE);

/** The caller's units, flat in the server's order (sort, id); nothing is asked without the grant. */
export function useOrgTreeQuery() {
  const granted = useOrgTreeGranted();
  return { granted, ...orgTreeApi.useOrgTreeQuery(undefined, { skip: !granted }) };
}

/** The flat unit list as a tree: children under their parent, in the server's order. */
export function buildOrgTree(rows: readonly OrgRow[]): OrgNode[] {
  const nodes = new Map(rows.map((unit) => [unit.id, { unit, children: [] as OrgNode[] }]));
  const roots: OrgNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.unit.pid === null ? undefined : nodes.get(node.unit.pid);
    // The top of a scoped caller's tree has pid null; a unit whose parent is missing still shows, at the top.
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}
