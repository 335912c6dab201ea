/** What the location screen shows and edits: the kinds of location and the add/edit dialog's fields. */
import type { FieldConfig } from '../../../components/list-screen';
import { hotelSelectFor } from '../../../components/org-tree';

export type LocationKind = 'building' | 'floor' | 'room';

export const KIND_LABEL: Record<LocationKind, string> = { building: '楼栋', floor: '楼层', room: '房间' };
export const KIND_COLOR: Record<LocationKind, string> = { building: 'blue', floor: 'green', room: 'default' };
/** The kind a new child of each kind is; rooms have none. */
export const CHILD_KIND: Record<LocationKind, LocationKind | null> = { building: 'floor', floor: 'room', room: null };

export const locationFields: FieldConfig[] = [
  { name: 'name', label: '名称', kind: 'text', required: true, max: 32 },
  { name: 'sort', label: '排序', kind: 'number', required: true, min: 0, max: 9999 },
];

/** A new building's hotel; floors and rooms follow their building, and a building keeps its hotel. */
export const buildingHotelField: FieldConfig = { name: 'orgId', label: '所属酒店', kind: 'select', required: true, control: hotelSelectFor('hotel/location') };
