/**
 * The organisation tree beside a list (the user screen), as staff know it from RuoYi: selecting a
 * unit narrows the list to that unit and everything under it, selecting it again shows all.
 */
import { Card, Input, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo, useState } from 'react';

import { buildOrgTree, useOrgTreeQuery, type OrgNode, type OrgTreeView } from './tree';

interface OrgTreePanelProps {
  /** The screen beside whose list the tree shows, whose tree it reads. */
  view: OrgTreeView;
  selected: number | null;
  onSelect: (orgId: number | null) => void;
}

/** The nodes whose name contains `text`, with the way to them; all of them when `text` is empty. */
function filterTree(nodes: OrgNode[], text: string): DataNode[] {
  return nodes.flatMap(({ unit, children }) => {
    const below = filterTree(children, text);
    if (text !== '' && !unit.name.includes(text) && below.length === 0) return [];
    return [{ key: unit.id, title: unit.name, children: below }];
  });
}

export function OrgTreePanel({ view, selected, onSelect }: OrgTreePanelProps) {
  const { data } = useOrgTreeQuery(view);
  const [text, setText] = useState('');
  const roots = useMemo(() => buildOrgTree(data ?? []), [data]);
  const treeData = useMemo(() => filterTree(roots, text.trim()), [roots, text]);
  return (
    <Card size="small" title="组织机构" className="org-tree-panel">
      <Input.Search allowClear placeholder="搜索单位" aria-label="搜索单位" onChange={(event) => setText(event.target.value)} style={{ marginBottom: 8 }} />
      {/* Mounted with its data (and again for each search), so that every unit shows unfolded. */}
      {treeData.length > 0 && (
        <Tree
          key={text}
          blockNode
          defaultExpandAll
          treeData={treeData}
          selectedKeys={selected === null ? [] : [selected]}
          onSelect={(keys) => onSelect(keys.length === 0 ? null : Number(keys[0]))}
        />
      )}
    </Card>
  );
}
