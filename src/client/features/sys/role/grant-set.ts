/**
 * What a role holds, as a set of grant keys, and the difference to save. A grant is a menu
 * (resource = menu id) or a resource under a menu (resource = resource id); the two id spaces
 * overlap, so the key carries the type.
 */
import type { BodyOf, DataOf } from '../../../../contract';

export type AuthItem = BodyOf<'/sys/role/auth'>['grant'][number];
export type MenuWithResources = DataOf<'/sys/menu/resources'>['records'][number];

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

/** The keys a menu row controls: the menu itself and every resource under it. */
export function menuRowKeys(menu: MenuWithResources): GrantKey[] {
  return [menuKey(menu.id), ...menu.resources.map((resource) => resourceKey(resource.id))];
}

/** Checking a menu checks its resources too; unchecking it takes them away with it. */
export function toggleMenu(selected: ReadonlySet<GrantKey>, menu: MenuWithResources, checked: boolean): Set<GrantKey> {
  const next = new Set(selected);
  for (const key of menuRowKeys(menu)) {
    if (checked) next.add(key);
    else next.delete(key);
  }
  return next;
}

export function toggleKey(selected: ReadonlySet<GrantKey>, key: GrantKey, checked: boolean): Set<GrantKey> {
  const next = new Set(selected);
  if (checked) next.add(key);
  else next.delete(key);
  return next;
}

/** Only what changed travels: the server applies grant and revoke in one transaction. */
export function grantDiff(held: ReadonlySet<GrantKey>, selected: ReadonlySet<GrantKey>) {
  return {
    grant: [...selected].filter((key) => !held.has(key)).map(toItem),
    revoke: [...held].filter((key) => !selected.has(key)).map(toItem),
  };
}
