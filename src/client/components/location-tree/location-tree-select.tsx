/**
 * A location picker for forms and filters (FieldConfig `control`): any building, floor or room.
 * As a filter it selects a subtree; on a device it is where the device is.
 */
import { useMemo } from 'react';

import type { CustomControlProps } from '../list-screen';
import { pickerControl } from '../picker-control';
import { TreeSelectInput } from '../tree-select-input';
import { buildTree, useLocationTreeQuery, type LocationNode, type LocationTreeView } from './tree';

const nodeView = ({ location }: LocationNode) => ({ value: location.id, title: location.name });

function LocationTreeSelect({ view, ...props }: CustomControlProps & { view: LocationTreeView }) {
  const { data } = useLocationTreeQuery(view);
  const roots = useMemo(() => buildTree(data ?? []), [data]);
  return <TreeSelectInput {...props} roots={roots} view={nodeView} placeholder="请选择位置" />;
}

/** A screen's location picker as a form control, reading the screen's tree (see pickerControl). */
export const locationTreeSelectFor = (view: LocationTreeView) => pickerControl(LocationTreeSelect, 'LocationTreeSelect', { view });
