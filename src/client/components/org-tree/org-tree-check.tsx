/**
 * A role's custom data scope as a checkable unit tree (FieldConfig `control`). Each checked unit
 * brings its whole subtree into the scope, so the tree checks strictly: ticking a hotel does not tick
 * its departments, and ticking every department does not tick the hotel.
 */
import { Empty, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo } from 'react';

import type { CustomControlProps } from '../list-screen';
import { pickerControl } from '../picker-control';
import { buildOrgTree, useOrgTreeQuery, type OrgNode, type OrgTreeView } from './tree';
import { OrgKindTag } from './org-kind-tag';

const toData = ({ unit, children }: OrgNode): DataNode => ({
  key: unit.id,
  title: (
    <>
      {unit.name} <OrgKindTag kind={unit.kind} />
    </>
  ),
  children: children.map(toData),
});

export function OrgTreeCheck({ view, id, value, onChange }: CustomControlProps & { view: OrgTreeView }) {
  const { data, granted } = useOrgTreeQuery(view);
  const treeData = useMemo(() => buildOrgTree(data ?? []).map(toData), [data]);
  const checked = (value as number[] | undefined) ?? [];
  if (!granted) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有读取可选单位的权限" />;
  return (
    <div id={id} style={{ maxHeight: 320, overflow: 'auto' }}>
      {/* Mounted with its data, so that every unit shows unfolded. */}
      {treeData.length > 0 && (
        <Tree
          checkable
          checkStrictly
          selectable={false}
          defaultExpandAll
          treeData={treeData}
          checkedKeys={checked}
          onCheck={(keys) => onChange?.((Array.isArray(keys) ? keys : keys.checked).map(Number))}
        />
      )}
    </div>
  );
}

/** A screen's checkable unit tree as a form control (see pickerControl). */
export const orgTreeCheckFor = (view: OrgTreeView) => pickerControl(OrgTreeCheck, 'OrgTreeCheck', { view });
