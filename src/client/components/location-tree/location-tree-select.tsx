/**
 * A location picker for forms and filters (FieldConfig `control`): any building, floor or room.
 * As a filter it selects a subtree; on a device it is where the device is.
 */
import { useMemo } from 'react';

import type { CustomControlProps } from '../list-screen';
import { TreeSelectInput } from '../tree-select-input';
import { buildTree, useLocationTreeQuery, type LocationNode } from './tree';

const view = ({ location }: LocationNode) => ({ value: location.id, title: location.name });

export function LocationTreeSelect(props: CustomControlProps) {
  const { data } = useLocationTreeQuery();
  const roots = useMemo(() => buildTree(data ?? []), [data]);
  return <TreeSelectInput {...props} roots={roots} view={view} placeholder="请选择位置" />;
}
