/**
 * Unit pickers for forms (FieldConfig `control`), offering only the caller's scope: any unit (a
 * user's unit), or a hotel (a building's or a device's), the other units shown as the way there.
 */
import { useMemo } from 'react';

import type { CustomControlProps } from '../list-screen';
import { TreeSelectInput, type TreeSelectNodeView } from '../tree-select-input';
import { buildOrgTree, useOrgTreeQuery, type OrgNode } from './tree';

interface UnitSelectProps extends CustomControlProps {
  /** Shown but not pickable, e.g. while something else decides the unit. */
  disabled?: boolean;
  placeholder?: string;
}

const anyUnit = ({ unit }: OrgNode): TreeSelectNodeView => ({ value: unit.id, title: unit.name });
const hotelOnly = ({ unit }: OrgNode): TreeSelectNodeView => ({ value: unit.id, title: unit.name, disabled: unit.kind !== 'hotel' });

function UnitSelect({ view, placeholder, ...props }: UnitSelectProps & { view: (node: OrgNode) => TreeSelectNodeView; placeholder: string }) {
  const { data } = useOrgTreeQuery();
  const roots = useMemo(() => buildOrgTree(data ?? []), [data]);
  return <TreeSelectInput {...props} roots={roots} view={view} placeholder={placeholder} expandAll />;
}

/** Any unit of the caller's scope. */
export function OrgTreeSelect(props: UnitSelectProps) {
  return <UnitSelect {...props} view={anyUnit} placeholder={props.placeholder ?? '请选择所属单位'} />;
}

/** A hotel of the caller's scope. */
export function HotelSelect(props: UnitSelectProps) {
  return <UnitSelect {...props} view={hotelOnly} placeholder={props.placeholder ?? '请选择所属酒店'} />;
}
