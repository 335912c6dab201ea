/**
 * A tree picker for forms and filters (FieldConfig `control`) holding one id, searched by label and
 * cleared to null. The unit and location pickers configure it with their tree and how a node reads.
 */
import { TreeSelect } from 'antd';
import { useMemo } from 'react';

import type { CustomControlProps } from './list-screen';

/** What a picker shows of a node: its id, its label, and whether it is only the way to others. */
export interface TreeSelectNodeView {
  value: number;
  title: string;
  disabled?: boolean;
}

interface TreeOption extends TreeSelectNodeView {
  children: TreeOption[];
}

export interface TreeSelectInputProps<Node extends { children: Node[] }> extends CustomControlProps {
  roots: readonly Node[];
  /** A stable function (module level or memoised): the options are rebuilt when it changes. */
  view: (node: Node) => TreeSelectNodeView;
  placeholder: string;
  /** Shown but not pickable. */
  disabled?: boolean;
  /** Opens with every branch unfolded. */
  expandAll?: boolean;
}

export function TreeSelectInput<Node extends { children: Node[] }>({
  id,
  value,
  onChange,
  roots,
  view,
  placeholder,
  disabled = false,
  expandAll = false,
}: TreeSelectInputProps<Node>) {
  const treeData = useMemo(() => {
    const toOption = (node: Node): TreeOption => ({ ...view(node), children: node.children.map(toOption) });
    return roots.map(toOption);
  }, [roots, view]);
  return (
    <TreeSelect
      id={id}
      value={(value as number | null | undefined) ?? undefined}
      // Cleared is null: the contract's "none" (no location, or the server decides the unit).
      onChange={(next: number | undefined) => onChange?.(next ?? null)}
      treeData={treeData}
      treeDefaultExpandAll={expandAll}
      allowClear
      showSearch
      treeNodeFilterProp="title"
      placeholder={placeholder}
      disabled={disabled}
      style={{ minWidth: 200 }}
      popupMatchSelectWidth={false}
    />
  );
}
