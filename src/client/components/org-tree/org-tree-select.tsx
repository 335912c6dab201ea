/**
 * Unit pickers for forms (FieldConfig `control`), offering only the caller's scope as the screen's
 * own tree answers it: any unit (a user's unit), or a hotel (a building's or a device's), the other
 * units shown as the way there.
 */
import { useMemo } from 'react';

import type { CustomControlProps } from '../list-screen';
import { pickerControl } from '../picker-control';
import { TreeSelectInput, type TreeSelectNodeView } from '../tree-select-input';
import { buildOrgTree, useOrgTreeQuery, type OrgNode, type OrgTreeView } from './tree';

interface UnitSelectProps extends CustomControlProps {
  /** The screen the picker is on, whose tree it reads. */
  view: OrgTreeView;
  /** Shown but not pickable, e.g. while something else decides the unit. */
  disabled?: boolean;
  placeholder?: string;
}

const anyUnit = ({ unit }: OrgNode): TreeSelectNodeView => ({ value: unit.id, title: unit.name });
const hotelOnly = ({ unit }: OrgNode): TreeSelectNodeView => ({ value: unit.id, title: unit.name, disabled: unit.kind !== 'hotel' });

function UnitSelect({ view, nodeView, placeholder, ...props }: UnitSelectProps & { nodeView: (node: OrgNode) => TreeSelectNodeView; placeholder: string }) {
  const { data } = useOrgTreeQuery(view);
  const roots = useMemo(() => buildOrgTree(data ?? []), [data]);
  return <TreeSelectInput {...props} roots={roots} view={nodeView} placeholder={placeholder} expandAll />;
}

/** Any unit of the caller's scope. */
function OrgTreeSelect(props: UnitSelectProps) {
  return <UnitSelect {...props} nodeView={anyUnit} placeholder={props.placeholder ?? '请选择所属单位'} />;
}

/** A hotel of the caller's scope. */
export function HotelSelect(props: UnitSelectProps) {
  return <UnitSelect {...props} nodeView={hotelOnly} placeholder={props.placeholder ?? '请选择所属酒店'} />;
}

/** A screen's unit picker as a form control (see pickerControl). */
export const orgTreeSelectFor = (view: OrgTreeView, placeholder?: string) => pickerControl(OrgTreeSelect, 'OrgTreeSelect', { view, placeholder });

/** A screen's hotel picker as a form control (see pickerControl). */
export const hotelSelectFor = (view: OrgTreeView) => pickerControl(HotelSelect, 'HotelSelect', { view });
