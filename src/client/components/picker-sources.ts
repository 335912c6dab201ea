/**
 * Where each screen's pickers read, and the grant that lets them (src/contract/pickers.ts): a
 * screen's unit tree, location tree and channel list are read at a path of that screen, granted as
 * one of its resources, so a role needs only the screen it works in. The owners keep their own
 * reads (组织管理's and 位置管理's trees). Nothing is asked without the grant: the picker
 * stays empty rather than refused.
 */
import type { ViewName } from '../config/views';
import type { PickerKeyOf } from '../../contract';
import { useGranted } from './list-screen';

/** The unit trees: 组织管理's own and every screen's picker (src/contract/pickers.ts). */
export type OrgTreeKey = 'GET /sys/org/tree' | PickerKeyOf<'org'>;
/** The location trees: 位置管理's own and every screen's picker. */
export type LocationTreeKey = 'GET /hotel/location/tree' | PickerKeyOf<'location'>;
export type ChannelChoicesKey = PickerKeyOf<'channel'>;

interface Source<Key> {
  key: Key;
  /** The resource type guarding `key`, under the screen's own menu. */
  resource: string;
}

const PICKER_SOURCES = {
  org: {
    'sys/org': { key: 'GET /sys/org/tree', resource: 'api_inquire' },
    'sys/user': { key: 'GET /sys/user/org/tree', resource: 'api_orgTree' },
    'sys/role': { key: 'GET /sys/role/org/tree', resource: 'api_orgTree' },
    'hotel/device': { key: 'GET /hotel/device/org/tree', resource: 'api_orgTree' },
    'hotel/location': { key: 'GET /hotel/location/org/tree', resource: 'api_orgTree' },
    'monitor/rule': { key: 'GET /monitor/rule/org/tree', resource: 'api_orgTree' },
  },
  location: {
    'hotel/device': { key: 'GET /hotel/device/location/tree', resource: 'api_locationTree' },
    'hotel/location': { key: 'GET /hotel/location/tree', resource: 'api_inquire' },
    'monitor/maintenance': { key: 'GET /monitor/maintenance/location/tree', resource: 'api_locationTree' },
    'monitor/rule': { key: 'GET /monitor/rule/location/tree', resource: 'api_locationTree' },
  },
  channel: {
    'monitor/rule': { key: 'GET /monitor/rule/channel/choices', resource: 'api_channelChoices' },
    'monitor/message': { key: 'GET /monitor/message/channel/choices', resource: 'api_channelChoices' },
  },
} as const satisfies {
  org: Partial<Record<ViewName, Source<OrgTreeKey>>>;
  location: Partial<Record<ViewName, Source<LocationTreeKey>>>;
  channel: Partial<Record<ViewName, Source<ChannelChoicesKey>>>;
};

type Sources = typeof PICKER_SOURCES;
type PickerSourceKind = keyof Sources;
/** The screens with a picker of a kind, e.g. every screen picking a unit. */
export type PickerView<Kind extends PickerSourceKind> = keyof Sources[Kind] & ViewName;
type KeyOfKind = { org: OrgTreeKey; location: LocationTreeKey; channel: ChannelChoicesKey };

/** A screen's picker of a kind: the endpoint it reads and whether the signed-in role may read it. */
export function usePickerSource<Kind extends PickerSourceKind>(kind: Kind, view: PickerView<Kind>): { key: KeyOfKind[Kind]; granted: boolean } {
  const source = PICKER_SOURCES[kind][view] as Source<KeyOfKind[Kind]>;
  return { key: source.key, granted: useGranted(view, source.resource) };
}
