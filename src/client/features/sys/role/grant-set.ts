/**
 * What a role holds, as a set of grant keys, and the difference to save. A grant is a menu
 * (resource = menu id) or a resource under a menu (resource = resource id); the two id spaces
 * overlap, so the key carries the type.
 *
 * The 授权 dialog shows the grants as a tree: menus (nested by their parent) with their resources
 * as leaves; a menu without resources or child menus is a leaf itself. Only leaves are ticked by
 * hand. A menu is held exactly when any leaf under it is ticked, so ticking one resource grants the
 * screen that shows it, and unticking the last one takes the screen away.
 */
import type { BodyOf, DataOf } from '../../../../contract';

export type AuthItem = BodyOf<'/sys/role/auth'>['grant'][number];
export type MenuWithResources = DataOf<'/sys/menu/resources'>['records'][number];
type Resource = MenuWithResources['resources'][number];

export type GrantKey = `${AuthItem['type']}:${number}`;

export const grantKey = (item: AuthItem): GrantKey => `${item.type}:${item.resource}`;
export const menuKey = (menuId: number): GrantKey => `menu:${menuId}`;
export const resourceKey = (resourceId: number): GrantKey => `resource:${resourceId}`;

function toItem(key: GrantKey): AuthItem {
  const [type, id] = key.split(':') as [AuthItem['type'], string];
  return { type, resource: Number(id) };
}

export function toGrantSet(items: readonly AuthItem[]): ReadonlySet<GrantKey> {
  return new Set(items.map(grantKey));
}

/** Only what changed travels: the server applies grant and revoke in one transaction. */
export function grantDiff(held: ReadonlySet<GrantKey>, selected: ReadonlySet<GrantKey>) {
  return {
    grant: [...selected].filter((key) => !held.has(key)).map(toItem),
    revoke: [...held].filter((key) => !selected.has(key)).map(toItem),
  };
}

export interface GrantNode {
  key: GrantKey;
  title: string;
  children: GrantNode[];
}

/**
 * What a resource lets a person do, in plain words. API resources are named that way already
 * (查询设备, 新增设备); a dictionary-driven field resource is stored as "<菜单>·<字段>" and
 * lets the screen offer that field's options.
 */
export function resourceLabel(resource: Pick<Resource, 'name' | 'type'>): string {
  if (!resource.type.startsWith('field_')) return resource.name;
  const fieldName = resource.name.includes('·') ? resource.name.slice(resource.name.indexOf('·') + 1) : resource.name;
  return `查看「${fieldName}」选项`;
}

/** The menus as a tree by their parent, each menu's resources first, then its child menus. */
export function grantTree(menus: readonly MenuWithResources[]): GrantNode[] {
  const ids = new Set(menus.map((menu) => menu.id));
  const build = (menu: MenuWithResources): GrantNode => ({
    key: menuKey(menu.id),
    title: menu.name,
    children: [
      ...menu.resources.map((resource) => ({ key: resourceKey(resource.id), title: resourceLabel(resource), children: [] })),
      ...menus.filter((child) => child.pid === menu.id).map(build),
    ],
  });
  // A menu whose parent is not among the menus stands at the top rather than disappearing.
  return menus.filter((menu) => menu.pid === null || !ids.has(menu.pid)).map(build);
}

function leavesOf(node: GrantNode): GrantKey[] {
  return node.children.length === 0 ? [node.key] : node.children.flatMap(leavesOf);
}

function walk(nodes: readonly GrantNode[], visit: (node: GrantNode) => void) {
  for (const node of nodes) {
    visit(node);
    walk(node.children, visit);
  }
}

/** Every node of the tree by its key. */
export function nodesByKey(tree: readonly GrantNode[]): Map<GrantKey, GrantNode> {
  const nodes = new Map<GrantKey, GrantNode>();
  walk(tree, (node) => nodes.set(node.key, node));
  return nodes;
}

/** The tree's ticks for a set of grants: a parent is ticked when all its leaves are, half-ticked when some are. */
export function treeChecks(tree: readonly GrantNode[], selected: ReadonlySet<GrantKey>) {
  const checked: GrantKey[] = [];
  const halfChecked: GrantKey[] = [];
  walk(tree, (node) => {
    const leaves = leavesOf(node);
    const ticked = leaves.filter((key) => selected.has(key)).length;
    if (ticked === leaves.length) checked.push(node.key);
    else if (ticked > 0) halfChecked.push(node.key);
  });
  return { checked, halfChecked };
}

/**
 * Ticking or unticking a node sets all the leaves under it; then every menu is held exactly when
 * a leaf under it is ticked.
 */
export function toggleNode(tree: readonly GrantNode[], selected: ReadonlySet<GrantKey>, node: GrantNode, checked: boolean): Set<GrantKey> {
  const leaves = new Set<GrantKey>();
  walk(tree, (each) => {
    if (each.children.length === 0) leaves.add(each.key);
  });
  const next = new Set([...selected].filter((key) => leaves.has(key)));
  for (const key of leavesOf(node)) {
    if (checked) next.add(key);
    else next.delete(key);
  }
  walk(tree, (each) => {
    if (each.children.length > 0 && leavesOf(each).some((key) => next.has(key))) next.add(each.key);
  });
  return next;
}

/**
 * The tree narrowed to what the search words match: a matching menu keeps everything under it, a
 * matching resource keeps the menus above it.
 */
export function filterTree(tree: readonly GrantNode[], words: string): GrantNode[] {
  const needle = words.trim().toLowerCase();
  if (!needle) return [...tree];
  const keep = (node: GrantNode): GrantNode | null => {
    if (node.title.toLowerCase().includes(needle)) return node;
    const children = node.children.map(keep).filter((child): child is GrantNode => child !== null);
    return children.length > 0 ? { ...node, children } : null;
  };
  return tree.map(keep).filter((node): node is GrantNode => node !== null);
}
