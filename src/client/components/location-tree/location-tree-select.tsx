/**
 * A location picker for forms and filters (FieldConfig `control`): any building, floor or room.
 * As a filter it selects a subtree; on a device it is where the device is.
 */
import { TreeSelect } from 'antd';
import { useMemo } from 'react';

import type { CustomControlProps } from '../list-screen';
import { buildTree, useLocationTreeQuery, type LocationNode } from './tree';

interface TreeOption {
  value: number;
  title: string;
  children: TreeOption[];
}

const toOption = ({ location, children }: LocationNode): TreeOption => ({ value: location.id, title: location.name, children: children.map(toOption) });

export function LocationTreeSelect({ id, value, onChange }: CustomControlProps) {
  const { data } = useLocationTreeQuery();
  const treeData = useMemo(() => buildTree(data ?? []).map(toOption), [data]);
  return (
    <TreeSelect
      id={id}
      value={(value as number | null | undefined) ?? undefined}
      // Cleared is null: the contract's "no location".
      onChange={(next: number | undefined) => onChange?.(next ?? null)}
      treeData={treeData}
      allowClear
      showSearch
      treeNodeFilterProp="title"
      placeholder="请选择位置"
      style={{ minWidth: 200 }}
      popupMatchSelectWidth={false}
    />
  );
}
