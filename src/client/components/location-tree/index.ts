/** The hotel's location tree, shared by the screens that read it (see tree.ts). */
export { buildTree, useLocationTreeQuery, type LocationNode, type LocationRow } from './tree';
export { locationTreeSelectFor } from './location-tree-select';
