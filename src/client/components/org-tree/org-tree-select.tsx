/**
 * Unit pickers for forms (FieldConfig `control`), offering only the caller's scope as the screen's
 * own tree answers it: any unit (a user's unit), or a hotel (a building's or a device's), the other
 * units shown as the way there.
 */
import { useMemo, type ComponentType } from 'react';

import type { CustomControlProps } from '../list-screen';
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

/** A screen's unit picker as a form control; made once per screen, at module level (a new component each render would remount it). */
export function orgTreeSelectFor(view: OrgTreeView, placeholder?: string): ComponentType<CustomControlProps> {
  const Control = (props: CustomControlProps) => <OrgTreeSelect {...props} view={view} placeholder={placeholder} />;
  Control.displayName = `OrgTreeSelect(${view})`;
  return Control;
}

/** A screen's hotel picker as a form control, made once per screen like `orgTreeSelectFor`. */
export function hotelSelectFor(view: OrgTreeView): ComponentType<CustomControlProps> {
  const Control = (props: CustomControlProps) => <HotelSelect {...props} view={view} />;
  Control.displayName = `HotelSelect(${view})`;
  return Control;
}
