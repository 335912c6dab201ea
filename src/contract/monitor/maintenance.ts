/**
 * Maintenance windows (monitor/maintenance): a location subtree (or the whole hotel) silenced for a
 * period. Alarms raised in it are still recorded; no message is sent about them.
 */
import { Type } from '@sinclair/typebox';
import { field, pagedRequest, paged, versioned, IdBody } from '../common';
import { acts, post, reads } from '../endpoint';

const maintenanceFields = {
  name: field.text('维护名称', 64),
  /** null: the whole hotel. */
  locationId: field.nullable(field.id('位置')),
  startsAt: field.instant('开始时间'),
  endsAt: field.instant('结束时间'),
  state: field.flag('状态'),
  remark: field.remark(),
};

export const MaintenanceRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  locationId: field.nullable(Type.Integer()),
  locationPath: Type.String(),
  startsAt: Type.Integer(),
  endsAt: Type.Integer(),
  state: Type.Integer(),
  remark: Type.String(),
  version: Type.Integer(),
  createdAt: field.time(),
  updatedAt: field.time(),
});

export const MaintenanceInquire = pagedRequest({ name: field.note('维护名称', 64), state: field.flag('状态') });
export const MaintenanceCreation = Type.Object(maintenanceFields, { additionalProperties: false });
export const MaintenanceEdit = Type.Object({ id: field.id(), ...maintenanceFields, ...versioned }, { additionalProperties: false });

export const maintenanceEndpoints = {
  '/monitor/maintenance/inquire': post(MaintenanceInquire, paged(MaintenanceRecord), reads),
  '/monitor/maintenance/creation': post(MaintenanceCreation, MaintenanceRecord, acts('maintenance')),
  '/monitor/maintenance/edit': post(MaintenanceEdit, MaintenanceRecord, acts('maintenance')),
  '/monitor/maintenance/removal': post(IdBody, Type.Null(), acts('maintenance')),
};
