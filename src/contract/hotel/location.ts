/**
 * Locations (hotel/location): building -> floor -> room, the places devices belong to. A building
 * has parentId 0; a floor's parent is a building, a room's a floor.
 */
import { Type, type Static } from '@sinclair/typebox';
import { field, IdBody, versioned } from '../common';
import { acts, get, post, reads, scoped } from '../endpoint';

export const LOCATION_KINDS = ['building', 'floor', 'room'] as const;
export const LocationKindSchema = Type.Union(
  LOCATION_KINDS.map((kind) => Type.Literal(kind)),
  { title: '位置类型' },
);

export const LocationRecord = Type.Object({
  id: Type.Integer(),
  parentId: Type.Integer(),
  kind: Type.String(),
  name: Type.String(),
  sort: Type.Integer(),
  /** A building's hotel (sys/org); null on floors and rooms, which follow their building. */
  orgId: field.nullable(Type.Integer()),
  version: Type.Integer(),
});
export type LocationRecord = Static<typeof LocationRecord>;

const locationFields = {
  name: field.text('名称', 32),
  sort: field.int('排序', 0, 9999),
};
export const LocationCreation = Type.Object(
  {
    parentId: Type.Integer({ title: '上级位置', minimum: 0, maximum: 2147483647 }),
    kind: LocationKindSchema,
    ...locationFields,
    /** A building's hotel; null: the creator's own unit. Ignored for floors and rooms. */
    orgId: Type.Optional(field.nullable(field.id('所属酒店'))),
  },
  { additionalProperties: false },
);
export const LocationEdit = Type.Object({ id: field.id(), ...locationFields, ...versioned }, { additionalProperties: false });

/** "Create rooms 0801-0830 on floor 8": numbers that already exist on the floor are skipped. */
export const RoomBulkCreation = Type.Object(
  {
    floorId: field.id('楼层'),
    from: field.text('开始房间号', 8, { pattern: '^[0-9]{1,8}$', patternHint: '只能包含数字' }),
    to: field.text('结束房间号', 8, { pattern: '^[0-9]{1,8}$', patternHint: '只能包含数字' }),
  },
  { additionalProperties: false },
);
export const RoomBulkResult = Type.Object({ created: Type.Integer(), skipped: Type.Integer() });

export const locationEndpoints = {
  'GET /hotel/location/tree': scoped('location', get(null, Type.Array(LocationRecord), reads)),
  '/hotel/location/creation': scoped('location', post(LocationCreation, LocationRecord, acts('location'))),
  '/hotel/location/edit': scoped('location', post(LocationEdit, LocationRecord, acts('location'))),
  // Recorded against the floor the rooms were added to.
  '/hotel/location/rooms/creation': scoped('location', post(RoomBulkCreation, RoomBulkResult, acts('location', 'body.floorId'))),
  /** Only an empty location goes: no child locations, no devices. */
  '/hotel/location/removal': scoped('location', post(IdBody, Type.Null(), acts('location'))),
};
