/**
 * The organisation tree (sys/org): group -> region -> hotel -> department. A user belongs to a unit,
 * a building and a device to a hotel; a role's data scope names units. The tree answers only the
 * units of the caller's scope (with no ancestors outside it); a unit is removed only when empty.
 */
import { Type, type Static } from '@sinclair/typebox';
import { field, IdBody, versioned } from '../common';
import { acts, get, post, reads, scoped } from '../endpoint';
import { ORG_KINDS } from '../constants';

export const OrgKindSchema = Type.Union(
  ORG_KINDS.map((kind) => Type.Literal(kind)),
  { title: '单位类型' },
);

export const OrgRecord = Type.Object({
  id: Type.Integer(),
  /** null for a root of the caller's tree (the group, or the top unit of a narrower scope). */
  pid: field.nullable(Type.Integer()),
  name: Type.String(),
  kind: Type.String(),
  code: Type.String(),
  state: Type.Integer(),
  sort: Type.Integer(),
  remark: Type.String(),
  createdAt: field.time(),
  updatedAt: field.time(),
  version: Type.Integer(),
});
export type OrgRecord = Static<typeof OrgRecord>;

const orgFields = {
  name: field.text('单位名称', 64),
  kind: OrgKindSchema,
  code: field.text('单位编码', 32, { pattern: '^[A-Za-z0-9_-]+$', patternHint: '只能包含字母、数字、_ 和 -' }),
  state: field.flag('状态'),
  sort: field.int('排序', 0, 9999),
  remark: field.remark(),
};
export const OrgCreation = Type.Object({ pid: field.id('上级单位'), ...orgFields }, { additionalProperties: false });
/** pid null keeps the unit where it is (the root, or a unit whose parent is outside the caller's tree). */
export const OrgEdit = Type.Object({ id: field.id(), pid: field.nullable(field.id('上级单位')), ...orgFields, ...versioned }, { additionalProperties: false });

export const orgEndpoints = {
  'GET /sys/org/tree': scoped('org', get(null, Type.Array(OrgRecord), reads)),
  '/sys/org/creation': scoped('org', post(OrgCreation, OrgRecord, acts('org'))),
  '/sys/org/edit': scoped('org', post(OrgEdit, OrgRecord, acts('org'))),
  /** Only an empty unit goes: no child units, users, buildings or devices. */
  '/sys/org/removal': scoped('org', post(IdBody, Type.Null(), acts('org'))),
};
