/**
 * The audit logs as hash chains. Each record carries the hash of the one before it and its own
 * hash: sha256 over the previous hash and a canonical serialisation of the record's columns (a JSON
 * array in a fixed order). Ids and times come from the chain's head row in sys_audit_chain, which
 * every append locks first (a row lock on PostgreSQL; SQLite serialises writers already), so several
 * API instances append one after another: ids are contiguous and times never go backwards.
 *
 * Retention cuts a chain at a record and keeps that record's id and hash as the chain's anchor, so
 * the integrity check starts from the oldest remaining record and still notices one deleted by hand.
 * Someone able to rewrite the database could recompute every hash; the chain makes changes
 * detectable, it does not make them impossible (compare the head hash with a copy kept elsewhere).
 */
import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database, LoginLogTable, OperationLogTable } from '../db/schema';
import type { Static } from '../../contract/common';
import type { ChainIntegrity } from '../../contract/monitor/operation';
import { yieldToEventLoop } from './event-loop';

export type ChainName = 'operation' | 'login';
type Db = Kysely<Database>;
type Trx = Transaction<Database>;

export type OperationEntry = Omit<OperationLogTable, 'id' | 'at' | 'prevHash' | 'hash'>;
export type LoginEntry = Omit<LoginLogTable, 'id' | 'at' | 'prevHash' | 'hash'>;
interface Entries {
  operation: OperationEntry;
  login: LoginEntry;
}
type Stored<C extends ChainName> = Entries[C] & { id: number; at: number; prevHash: string; hash: string };

const tables = { operation: 'sysOperationLog', login: 'sysLoginLog' } as const;

/**
 * The hashed columns, in their canonical order. Adding a column means adding it here, at the end.
 * (The audit bench reads this list and recordHash from the build, so its rows pass the check.)
 * The units (`unitColumns`) came later: a record's hash covers them from the chain's unitsFromId on.
 */
export const hashedColumns: { [C in ChainName]: ReadonlyArray<keyof Entries[C] | 'id' | 'at'> } = {
  operation: [
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
    'params',
    'changes',
  ],
  login: ['id', 'at', 'event', 'outcome', 'userId', 'userName', 'ip', 'browser', 'os', 'userAgent', 'msg'],
};

/** The units a record is scoped by, hashed after the columns above for records from unitsFromId on. */
export const unitColumns: { [C in ChainName]: ReadonlyArray<keyof Entries[C]> } = {
  operation: ['actorOrgId', 'targetOrgId'],
  login: ['orgId'],
};

/** Column lengths, so what is stored (and hashed) is what fits: PostgreSQL refuses longer text. */
const lengths: { [C in ChainName]: Partial<Record<keyof Entries[C], number>> } = {
  operation: { operatorType: 16, operatorName: 64, module: 64, action: 64, path: 100, targetType: 16, targetId: 64, targetLabel: 100, outcome: 16, msg: 500, ip: 64 },
  login: { event: 16, outcome: 16, userName: 64, ip: 64, browser: 64, os: 64, userAgent: 255, msg: 200 },
};

/**
 * `unitsFromId`: the chain's first record whose hash covers its units (sys_audit_chain); records
 * before it were hashed without them, and their units were filled in afterwards.
 */
export function recordHash<C extends ChainName>(chain: C, record: Omit<Stored<C>, 'hash' | 'prevHash'>, prevHash: string, unitsFromId = 0): string {
  const columns = record.id >= unitsFromId ? [...hashedColumns[chain], ...unitColumns[chain]] : hashedColumns[chain];
  const values = columns.map((column) => (record as Record<string, unknown>)[column as string] ?? null);
  return crypto.createHash('sha256').update(prevHash).update('\n').update(JSON.stringify(values)).digest('hex');
}

/** NUL (PostgreSQL text refuses it) and lone surrogates (stored as U+FFFD, so the hash would no longer match). */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** What is stored is exactly what is hashed: text cut to its column, then made storable as it is. */
function fitted<C extends ChainName>(chain: C, entry: Entries[C]): Entries[C] {
  const copy = { ...entry } as Record<string, unknown>;
  const max = lengths[chain] as Record<string, number | undefined>;
  for (const [column, value] of Object.entries(copy)) {
    if (typeof value !== 'string') continue;
    const cut = max[column] !== undefined && value.length > max[column] ? value.slice(0, max[column]) : value;
    copy[column] = cut.replace(UNSTORABLE, '\uFFFD');
  }
  return copy as Entries[C];
}

/** A database not yet migrated to units (before 027) has no unitsFromId: its records were hashed without them. */
const unitsFrom = (head: { unitsFromId?: number }) => head.unitsFromId ?? Number.POSITIVE_INFINITY;

/** Rows per INSERT: well under either database's limit on bound parameters. */
const INSERT_BATCH = 200;

/**
 * Appends entries to a chain in one transaction and answers their ids. `now` is the time they are
 * written at, raised to the head's time if a clock behind another instance's would go backwards.
 */
export async function appendToChain<C extends ChainName>(db: Db, chain: C, entries: Array<Entries[C]>, now = Date.now()): Promise<number[]> {
  if (entries.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    const head = await lockHead(trx, chain);
    const at = Math.max(now, head.headAt);
    let prevHash = head.headHash;
    let id = head.headId;
    const rows: Array<Stored<C>> = entries.map((entry) => {
      id += 1;
      const record = { ...fitted(chain, entry), id, at } as unknown as Omit<Stored<C>, 'hash' | 'prevHash'>;
      const hash = recordHash(chain, record, prevHash, unitsFrom(head));
      const row = { ...record, prevHash, hash } as Stored<C>;
      prevHash = hash;
      return row;
    });
    for (let start = 0; start < rows.length; start += INSERT_BATCH) {
      await trx
        .insertInto(tables[chain])
        .values(rows.slice(start, start + INSERT_BATCH) as never)
        .execute();
    }
    await trx.updateTable('sysAuditChain').set({ headId: id, headHash: prevHash, headAt: at }).where('chain', '=', chain).execute();
    return rows.map((row) => row.id);
  });
}

/** The first statement is a write, so the transaction holds the head (and SQLite's write lock) from the start. */
async function lockHead(trx: Trx, chain: ChainName) {
  await trx
    .updateTable('sysAuditChain')
    .set((eb) => ({ headId: eb.ref('headId') }))
    .where('chain', '=', chain)
    .execute();
  return trx.selectFrom('sysAuditChain').selectAll().where('chain', '=', chain).executeTakeFirstOrThrow();
}

export type IntegrityReport = Static<typeof ChainIntegrity>;

const BROKEN = {
  content: '记录内容与其哈希不符：该记录被修改过',
  link: '与上一条记录的哈希链接不符：此前的记录被修改、插入或删除过',
  missing: '记录缺失：该记录被删除过',
  tail: '链头记录的最后一条缺失或不符：末尾的记录被删除或修改过',
};

const CHECK_BATCH = 5000;

/**
 * Walks a chain from its anchor to its head and reports the first broken link. Reads in id batches
 * (no long transaction); a retention run moving the anchor meanwhile makes it start again.
 */
export async function checkChainIntegrity(db: Db, chain: ChainName): Promise<IntegrityReport> {
  for (let attempt = 0; ; attempt += 1) {
    const result = await walk(db, chain);
    if (result.ok || attempt >= 2) return result;
    const head = await db.selectFrom('sysAuditChain').select('anchorId').where('chain', '=', chain).executeTakeFirstOrThrow();
    if (head.anchorId === result.anchorId) return result;
  }
}

async function walk(db: Db, chain: ChainName): Promise<IntegrityReport> {
  const head = await db.selectFrom('sysAuditChain').selectAll().where('chain', '=', chain).executeTakeFirstOrThrow();
  const report = (checked: number, firstBroken: IntegrityReport['firstBroken']): IntegrityReport => ({
    ok: firstBroken === null,
    checked,
    anchorId: head.anchorId,
    headId: head.headId,
    firstBroken,
  });
  let expectedId = head.anchorId + 1;
  let prevHash = head.anchorHash;
  let checked = 0;
  for (;;) {
    const batch = (await db
      .selectFrom(tables[chain])
      .selectAll()
      .where('id', '>=', expectedId)
      .where('id', '<=', head.headId)
      .orderBy('id')
      .limit(CHECK_BATCH)
      .execute()) as unknown as Array<Stored<typeof chain>>;
    for (const row of batch) {
      if (row.id !== expectedId) return report(checked, { id: expectedId, reason: BROKEN.missing });
      if (row.prevHash !== prevHash) return report(checked, { id: row.id, reason: BROKEN.link });
      // recordHash reads only the hashed columns, so the row is passed as it is (no copy per record).
      if (recordHash(chain, row, prevHash, unitsFrom(head)) !== row.hash) return report(checked, { id: row.id, reason: BROKEN.content });
      checked += 1;
      prevHash = row.hash;
      expectedId += 1;
    }
    if (batch.length < CHECK_BATCH) break;
    await yieldToEventLoop();
  }
  if (expectedId - 1 !== head.headId) return report(checked, { id: expectedId, reason: BROKEN.missing });
  if (prevHash !== head.headHash) return report(checked, { id: head.headId, reason: BROKEN.tail });
  return report(checked, null);
}

/** What staff read for a chain's integrity check. */
export const integrityMessage = (report: IntegrityReport) =>
  report.ok ? `校验通过：${report.checked} 条记录的哈希链完整` : `校验未通过：记录 ${report.firstBroken?.id} ${report.firstBroken?.reason}`;

const PRUNE_BATCH = 5000;

/**
 * Deletes a chain's records written before `cutoff`, oldest first, after moving the anchor to the
 * newest of them. Times never go backwards along a chain, so these are exactly the records up to
 * one id. Answers how many were deleted.
 */
export async function pruneChain(db: Db, chain: ChainName, cutoff: number): Promise<number> {
  const table = tables[chain];
  const last = await db.selectFrom(table).select(['id', 'hash']).where('at', '<', cutoff).orderBy('at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!last) return 0;
  const previousAnchor = await db.transaction().execute(async (trx) => {
    const head = await lockHead(trx, chain);
    if (last.id > head.anchorId) {
      await trx.updateTable('sysAuditChain').set({ anchorId: last.id, anchorHash: last.hash }).where('chain', '=', chain).execute();
    }
    return head.anchorId;
  });
  const oldest = await db.selectFrom(table).select('id').orderBy('id').limit(1).executeTakeFirst();
  let deleted = 0;
  // Small ranges, so a large first prune never holds the database for long.
  for (let from = Math.min(previousAnchor, (oldest?.id ?? 1) - 1); from < last.id; from += PRUNE_BATCH) {
    const result = await db
      .deleteFrom(table)
      .where('id', '>', from)
      .where('id', '<=', Math.min(from + PRUNE_BATCH, last.id))
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
    await yieldToEventLoop();
  }
  return deleted;
}
