/**
 * Reads of the operation log: filtered pages newest first, one record in full, export batches. Each
 * is scoped: a record is in scope when its actor's unit or its target's is (仅本人: the caller's own).
 */
import type { Kysely } from 'kysely';
import type { Database, Row } from '../../../db/schema';
import type { BodyOf } from '../../../../contract';
import type { Static } from '../../../../contract/common';
import type { OperationRecord } from '../../../../contract/monitor/operation';
import { given } from '../../../lib/list-query';
import { notFound } from '../../../lib/errors';
import { newestFirstInBatches, newestFirstPage } from '../../../lib/keyset-batches';
import { inScope, type DataScope, type ScopeColumns } from '../../../lib/data-scope';

type Db = Kysely<Database>;
type Filters = NonNullable<BodyOf<'/monitor/operation/inquire'>['params']>;
type OperationRow = Static<typeof OperationRecord>;

const recordColumns = [
  'id',
  'at',
  'operatorType',
  'operatorId',
  'operatorName',
  'module',
  'action',
  'path',
  'targetType',
  'targetId',
  'targetLabel',
  'outcome',
  'code',
  'msg',
  'ip',
  'durationMs',
  'actorOrgId',
  'targetOrgId',
] as const;

const OPERATION_SCOPE: ScopeColumns = { org: ['sysOperationLog.actorOrgId', 'sysOperationLog.targetOrgId'], self: 'sysOperationLog.operatorId' };

/** Text filters match exactly (each leads an index ending in at, id). */
export function filteredOperations(db: Db, scope: DataScope, params: Filters) {
  let query = db.selectFrom('sysOperationLog').$call(inScope(scope, OPERATION_SCOPE));
  if (params.startAt !== undefined) query = query.where('at', '>=', params.startAt);
  if (params.endAt !== undefined) query = query.where('at', '<=', params.endAt);
  if (given(params.operatorName)) query = query.where('operatorName', '=', params.operatorName.trim());
  if (given(params.module)) query = query.where('module', '=', params.module.trim());
  if (given(params.action)) query = query.where('action', '=', params.action.trim());
  if (params.outcome !== undefined) query = query.where('outcome', '=', params.outcome);
  if (given(params.targetType)) query = query.where('targetType', '=', params.targetType.trim());
  if (given(params.targetId)) query = query.where('targetId', '=', params.targetId.trim());
  return query;
}

const toRecord = (row: Pick<Row<'sysOperationLog'>, (typeof recordColumns)[number]>): OperationRow => ({
  ...row,
  outcome: row.outcome as OperationRow['outcome'],
  operatorType: row.operatorType as OperationRow['operatorType'],
});

export async function inquireOperations(db: Db, scope: DataScope, { size, current, after, params = {} }: BodyOf<'/monitor/operation/inquire'>) {
  const page = await newestFirstPage({ size, current, after }, db, filteredOperations(db, scope, params).select('id'), (ids) =>
    db.selectFrom('sysOperationLog').select(recordColumns).where('id', 'in', ids),
  );
  return { ...page, records: page.records.map(toRecord) };
}

/** Stored JSON written by the audit hook; unreadable text (a hand-edited row) is shown as text. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export async function findOperation(db: Db, scope: DataScope, id: number) {
  const row = await db.selectFrom('sysOperationLog').$call(inScope(scope, OPERATION_SCOPE)).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('操作日志');
  const changes = parsed(row.changes);
  return {
    ...toRecord(row),
    params: parsed(row.params),
    changes: Array.isArray(changes) ? (changes as Array<{ field: string; title: string; before: unknown; after: unknown }>) : [],
    prevHash: row.prevHash,
    hash: row.hash,
  };
}

/** Newest first, one batch after another (keyset on time and id, so each batch is an index range). */
export async function* operationsForExport(db: Db, scope: DataScope, params: Filters): AsyncGenerator<OperationRow> {
  for await (const row of newestFirstInBatches(filteredOperations(db, scope, params).select(recordColumns))) yield toRecord(row);
}

/** The modules (menus) and actions (API resources) there are now, for the filter selects. */
export async function operationOptions(db: Db) {
  const rows = await db
    .selectFrom('sysResource as r')
    .innerJoin('sysMenu as m', 'm.id', 'r.menuId')
    .select(['m.name as module', 'r.name as action'])
    .where('r.path', '<>', '')
    .orderBy('m.pid')
    .orderBy('m.sort')
    .orderBy('m.id')
    .orderBy('r.id')
    .execute();
  const modules = new Map<string, string[]>();
  for (const row of rows) modules.set(row.module, [...(modules.get(row.module) ?? []), row.action]);
  return [...modules].map(([module, actions]) => ({ module, actions }));
}
