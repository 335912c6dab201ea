/**
 * The organisation tree (group -> region -> hotel -> department) as the caller's data scope shows it,
 * read by every screen that places or filters by unit: 组织管理 edits it, the user screen filters by
 * it, forms pick a unit from it. Each screen reads it at its own path under its own 可选单位 grant
 * (picker-sources.ts): a role without it gets no tree and no pickers (the server then places new
 * rows in the caller's own unit), rather than a refusal toast.
 */
import type { DataOf } from '../../../contract';
import { api } from '../../lib/http/api';
import { keyedGetQuery } from '../../lib/http/endpoints';
import { usePickerSource, type OrgTreeKey, type PickerView } from '../picker-sources';

export type OrgRow = DataOf<'GET /sys/org/tree'>[number];
/** A screen with a unit tree of its own. */
export type OrgTreeView = PickerView<'org'>;

export interface OrgNode {
  unit: OrgRow;
  children: OrgNode[];
}

const orgTreeApi = api.injectEndpoints({
  endpoints: (build) => ({
    orgTree: keyedGetQuery<OrgTreeKey>(build, ['Org']),
  }),
});

/** Whether the signed-in role may read the screen's unit tree. */
export const useOrgTreeGranted = (view: OrgTreeView): boolean => usePickerSource('org', view).granted;

/** The caller's units as the screen reads them, flat in the server's order (sort, id); nothing is asked without the grant. */
export function useOrgTreeQuery(view: OrgTreeView) {
  const { key, granted } = usePickerSource('org', view);
  return { granted, ...orgTreeApi.useOrgTreeQuery(key, { skip: !granted }) };
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
