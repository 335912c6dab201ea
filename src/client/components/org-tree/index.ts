/** The organisation tree of the caller's scope, shared by the screens that read it (see tree.ts). */
export { buildOrgTree, useOrgTreeGranted, useOrgTreeQuery, type OrgNode, type OrgRow } from './tree';
export { HotelSelect, hotelSelectFor, orgTreeSelectFor } from './org-tree-select';
export { orgTreeCheckFor } from './org-tree-check';
export { OrgTreePanel } from './org-tree-panel';
export { OrgKindTag } from './org-kind-tag';
