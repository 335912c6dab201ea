/**
 * Advanced settings (hotel/advanced): integration configurations. The app secret is write-only:
 * answers carry only a masked form; an edit with an empty secret keeps the stored one.
 */
import { Type } from '@sinclair/typebox';
import { field, pagedRequest, paged, versioned, IdBody, defaulted } from '../common';
import { acts, post, reads, scoped } from '../endpoint';

export const AdvancedRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  endpointUrl: Type.String(),
  appKey: Type.String(),
  /** e.g. `******3f9a`; empty when no secret is stored. */
  appSecretMasked: Type.String(),
  state: Type.Integer(),
  remark: Type.String(),
  initialisedAt: field.nullable(Type.Integer()),
  /** The hotel (unit) the configuration belongs to. */
  orgId: field.nullable(Type.Integer()),
  version: Type.Integer(),
  createdAt: field.time(),
  updatedAt: field.time(),
});

export const ADVANCED_SORT_KEYS = ['name', 'state', 'initialisedAt', 'updatedAt'] as const;

export const AdvancedInquire = pagedRequest(
  {
    name: field.note('配置名称', 32),
    state: field.flag('状态'),
  },
  ADVANCED_SORT_KEYS,
);

const advancedFields = {
  name: field.text('配置名称', 32),
  endpointUrl: defaulted(field.note('接口地址', 200), ''),
  appKey: defaulted(field.note('App Key', 100), ''),
  appSecret: field.secret('App Secret', 0, 200),
  state: field.flag('状态'),
  remark: field.remark(),
  /** Creation: null for the caller's own unit; edit: null keeps the configuration's unit. */
  orgId: defaulted(field.nullable(field.id('所属酒店')), null),
};
export const AdvancedCreation = Type.Object(advancedFields, { additionalProperties: false });
export const AdvancedEdit = Type.Object({ id: field.id(), ...advancedFields, ...versioned }, { additionalProperties: false });

export const advancedEndpoints = {
  '/hotel/advanced/inquire': scoped('advanced', post(AdvancedInquire, paged(AdvancedRecord), reads)),
  '/hotel/advanced/creation': scoped('advanced', post(AdvancedCreation, AdvancedRecord, acts('advanced'))),
  '/hotel/advanced/edit': scoped('advanced', post(AdvancedEdit, AdvancedRecord, acts('advanced'))),
  '/hotel/advanced/jd/edit': scoped('advanced', post(IdBody, AdvancedRecord, acts('advanced'))),
};
