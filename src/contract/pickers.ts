/**
 * The screens' pickers (docs/API.md, Pickers): the unit tree, the location tree and the channel list
 * a screen's forms and filters pick from, each read at a path of that screen and granted as one of
 * its resources (as RuoYi's user screen reads /system/user/deptTree under its own list permission).
 * A role placing a user in a unit, a rule on a floor or a message's channel in a filter needs the
 * screen it works in, not 组织管理, 设备管理 or 通知渠道 as well; what a picker answers is what the
 * owning screen's read answers the same caller (the units and locations of their data scope; a
 * channel's id, name, type and state, never its configuration).
 */
import { Type, type Static } from '@sinclair/typebox';
import { get, reads, scoped } from './endpoint';
import { OrgRecord } from './sys/org';
import { LocationRecord } from './hotel/location';

export const ChannelChoice = Type.Object({ id: Type.Integer(), name: Type.String(), type: Type.String(), state: Type.Integer() });
export type ChannelChoice = Static<typeof ChannelChoice>;

/** What a picker offers: the caller's units, the caller's locations, every channel. */
export const PICKER_KINDS = ['org', 'location', 'channel'] as const;
export type PickerKind = (typeof PICKER_KINDS)[number];

const answers = {
  org: scoped('org', get(null, Type.Array(OrgRecord), reads)),
  location: scoped('location', get(null, Type.Array(LocationRecord), reads)),
  channel: get(null, Type.Array(ChannelChoice), reads),
};

/**
 * Each screen's picker reads: the endpoint key and what it offers. A screen reading its own entity
 * (组织管理's and 位置管理's trees, 通知渠道's list) keeps that read and is not listed.
 */
export const PICKERS = {
  'GET /sys/user/org/tree': 'org',
  'GET /sys/role/org/tree': 'org',
  'GET /hotel/device/org/tree': 'org',
  'GET /hotel/device/location/tree': 'location',
  'GET /hotel/location/org/tree': 'org',
  'GET /monitor/maintenance/location/tree': 'location',
  'GET /monitor/rule/org/tree': 'org',
  'GET /monitor/rule/location/tree': 'location',
  'GET /monitor/rule/channel/choices': 'channel',
  'GET /monitor/message/channel/choices': 'channel',
} as const satisfies Record<string, PickerKind>;
export type PickerKey = keyof typeof PICKERS;
/** The picker keys offering one kind, e.g. every unit tree. */
export type PickerKeyOf<Kind extends PickerKind> = { [K in PickerKey]: (typeof PICKERS)[K] extends Kind ? K : never }[PickerKey];

export const pickerEndpoints = Object.fromEntries(Object.entries(PICKERS).map(([key, kind]) => [key, answers[kind]])) as {
  [K in PickerKey]: (typeof answers)[(typeof PICKERS)[K]];
};
