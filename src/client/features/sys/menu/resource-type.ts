/**
 * A resource's stored type is a category and a key joined by an underscore (docs/api/system.md, Menus and resources:
 * `api_inquire`, `field_state`). The form edits them as two inputs, `type` (the category) and
 * `field_type` (the key); field_type never travels to the server.
 */
import { RESOURCE_CATEGORIES, type ResourceCategory } from '../../../../contract/constants';

export interface ResourceTypeInputs {
  type: ResourceCategory;
  field_type: string;
}

export function joinResourceType<T extends ResourceTypeInputs>(values: T): Omit<T, 'field_type'> {
  const { field_type: key, ...rest } = values;
  return { ...rest, type: `${values.type}_${key}` };
}

function isCategory(value: string): value is ResourceCategory {
  return (RESOURCE_CATEGORIES as readonly string[]).includes(value);
}

/** The two inputs of a stored type; keys hold no underscore (RESOURCE_TYPE_PATTERN), so the first one is the join. */
export function splitResourceType(stored: string): ResourceTypeInputs {
  const cut = stored.indexOf('_');
  const category = cut < 0 ? stored : stored.slice(0, cut);
  return {
    type: isCategory(category) ? category : 'api',
    field_type: cut < 0 ? '' : stored.slice(cut + 1),
  };
}
