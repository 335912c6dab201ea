/**
 * Unit pickers for forms (FieldConfig `control`), offering only the caller's scope: any unit (a
 * user's unit), or a hotel (a building's or a device's), the other units shown as the way there.
 */
import { TreeSelect } from 'antd';
import { useMemo } from 'react';

import type { OrgKind } from '../../../contract/constants';
import type { CustomControlProps } from '../list-screen';
import { buildOrgTree, useOrgTreeQuery, type OrgNode } from './tree';

interface TreeOption {
  value: number;
  title: string;
  disabled: boolean;
  children: TreeOption[];
}

const toOption =
  (kind: OrgKind | undefined) =>
  ({ unit, children }: OrgNode): TreeOption => ({
    value: unit.id,
    title: unit.name,
    disabled: kind !== undefined && unit.kind !== kind,
    children: children.map(toOption(kind)),
  });

interface UnitSelectProps extends CustomControlProps {
  /** Shown but not pickable, e.g. while something else decides the unit. */
  disabled?: boolean;
  placeholder?: string;
}

function UnitSelect({ id, value, onChange, kind, placeholder, disabled = false }: UnitSelectProps & { kind?: OrgKind; placeholder: string }) {
  const { data } = useOrgTreeQuery();
  const treeData = useMemo(() => buildOrgTree(data ?? []).map(toOption(kind)), [data, kind]);
  return (
    <TreeSelect
      id={id}
      value={(value as number | null | undefined) ?? undefined}
      // Cleared is null: the contract's "the server decides" (the caller's own unit, or unchanged).
      onChange={(next: number | undefined) => onChange?.(next ?? null)}
      treeData={treeData}
      treeDefaultExpandAll
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

/** Any unit of the caller's scope. */
export function OrgTreeSelect(props: UnitSelectProps) {
  return <UnitSelect {...props} placeholder={props.placeholder ?? '请选择所属单位'} />;
}

/** A hotel of the caller's scope. */
export function HotelSelect(props: UnitSelectProps) {
  return <UnitSelect {...props} kind="hotel" placeholder={props.placeholder ?? '请选择所属酒店'} />;
}
