/**
 * Operation log (monitor/operation): one record per state-changing call and per refused call,
 * written by the server's audit hook, append-only and hash-chained. Nothing here edits or deletes
 * a record; old ones leave only through the retention task.
 */
import { Type } from '@sinclair/typebox';
import { paged, field, pagedRequest, IdBody } from '../common';
import { download, post, postEmpty, reads, scoped } from '../endpoint';

/** success: answered 200; refused: a business refusal (400, 401, 403, 404, 409, 429); failed: 500. */
export const OPERATION_OUTCOMES = ['success', 'refused', 'failed'] as const;
export type OperationOutcome = (typeof OPERATION_OUTCOMES)[number];
const Outcome = Type.Union(
  OPERATION_OUTCOMES.map((value) => Type.Literal(value)),
  { title: '结果' },
);

/** user: a signed-in operator; anonymous: a call without a valid session; system: a schedule; device: a device's own report. */
export const OPERATOR_TYPES = ['user', 'anonymous', 'system', 'device'] as const;
export type OperatorType = (typeof OPERATOR_TYPES)[number];

export const OperationRecord = Type.Object({
  id: Type.Integer(),
  /** When the record was written (epoch ms); never earlier than the record before it. */
  at: Type.Integer(),
  operatorType: Type.Union(OPERATOR_TYPES.map((value) => Type.Literal(value))),
  operatorId: field.nullable(Type.Integer()),
  /** The user name, a device's serial number, or 系统. */
  operatorName: Type.String(),
  /** The name of the menu whose resource guards the path, as it was when the call was made. */
  module: Type.String(),
  /** The resource's name (e.g. 编辑用户), or the endpoint's own action name. */
  action: Type.String(),
  /** The API path called (under /api); empty for events no call made (a device going offline). */
  path: Type.String(),
  /** One of AUDIT_TARGET_TYPES, or empty when the call acts on no single record. */
  targetType: Type.String(),
  targetId: Type.String(),
  /** A readable name of the target (user name, device name and serial number, ...). */
  targetLabel: Type.String(),
  outcome: Outcome,
  /** The envelope code answered (200, 400, 401, 403, 404, 409, 429, 500). */
  code: Type.Integer(),
  msg: Type.String(),
  ip: Type.String(),
  durationMs: Type.Integer(),
  /** The actor's unit when the call was made; null for anonymous callers, the system and records older than units. */
  actorOrgId: field.nullable(Type.Integer()),
  /** The target's unit (a device's hotel, a user's unit); null for configuration and records older than units. */
  targetOrgId: field.nullable(Type.Integer()),
});

/** One field an edit changed; values are redacted like the parameters. */
export const OperationChange = Type.Object({
  field: Type.String(),
  /** The field's Chinese name from the contract, or the field key. */
  title: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
});

export const OperationDetail = Type.Object({
  ...OperationRecord.properties,
  /** The request body (or query), secrets replaced by ******, fields the contract does not know by [未记录]. */
  params: Type.Unknown(),
  /** Field by field, for a successful edit of one record; empty otherwise. */
  changes: Type.Array(OperationChange),
  prevHash: Type.String(),
  hash: Type.String(),
});

const operationFilters = {
  startAt: field.instant('开始时间'),
  endAt: field.instant('结束时间'),
  /** Exact user name (or serial number / 系统). */
  operatorName: field.note('操作人', 64),
  module: field.note('模块', 32),
  action: field.note('操作', 32),
  outcome: Outcome,
  targetType: field.note('对象类型', 16),
  /** With targetType: one record's history, e.g. a device's status changes. */
  targetId: field.note('对象编号', 64),
};
/** Newest first (time desc, id desc). Text filters match exactly; a blank one is no filter. */
export const OperationInquire = pagedRequest(operationFilters);
export const OperationExport = Type.Object(
  { params: Type.Optional(Type.Partial(Type.Object(operationFilters, { additionalProperties: false }))) },
  { additionalProperties: false },
);

/** The modules and actions there are now, for the filter selects. */
export const OperationOption = Type.Object({ module: Type.String(), actions: Type.Array(Type.String()) });

/**
 * The integrity check of a hash chain (完整性校验): the result of walking it from its anchor (the
 * last pruned record, or the start) to its head, with the first record whose content or link does
 * not match, if any.
 */
export const ChainIntegrity = Type.Object({
  ok: Type.Boolean(),
  /** Records checked. */
  checked: Type.Integer(),
  /** The id the chain starts after (0 until retention has pruned anything). */
  anchorId: Type.Integer(),
  /** The newest record's id, as the chain head holds it. */
  headId: Type.Integer(),
  firstBroken: field.nullable(
    Type.Object({
      /** The first record found wrong (for a deleted tail: the head id). */
      id: Type.Integer(),
      reason: Type.String(),
    }),
  ),
});

export const operationEndpoints = {
  '/monitor/operation/inquire': scoped('log', post(OperationInquire, paged(OperationRecord), reads)),
  '/monitor/operation/detail': scoped('log', post(IdBody, OperationDetail, reads)),
  '/monitor/operation/options': postEmpty(Type.Array(OperationOption), reads),
  '/monitor/operation/export': scoped('log', download(OperationExport)),
  '/monitor/operation/integrity': postEmpty(ChainIntegrity, reads),
};
