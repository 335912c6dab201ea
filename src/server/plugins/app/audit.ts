/**
 * The audit trail's one recording point (docs/api/monitor.md). A hook around every /api route
 * writes one operation-log record per state-changing call and per refused or failed call, from the
 * route's contract entry alone: its audit metadata (read or write, target type, where the target id
 * is), its request schema (what to redact) and the database's names for it (the resource guarding
 * the path is the action, its menu the module, so renaming a menu shows in new records). A route
 * added later is recorded without code of its own; how its target reads is registered by its
 * feature (audit-targets.ts).
 *
 * Sign-ins, sign-outs and session ends go to the login log (the sign-in route and the session
 * service call `Audit`); what the system changes on its own (devices going offline, alarms) is
 * appended through `operations` (services/device-status/records.ts). Writing a record never
 * changes an answer: a failure is logged and the user gets what the route answered.
 */
import fp from 'fastify-plugin';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { contract, type EndpointKey } from '../../../contract';
import type { AuditMeta, AuditTargetType } from '../../../contract/endpoint';
import type { LoginEvent, LoginOutcome } from '../../../contract/monitor/login';
import type { OperationOutcome } from '../../../contract/monitor/operation';
import { appendToChain, type LoginEntry, type OperationEntry } from '../../lib/audit-chain';
import { redact } from '../../lib/redact';
import { describeUserAgent, userAgentOf } from '../../lib/user-agent';
import { AppError } from '../../lib/errors';
import { Code } from '../../../contract/constants';
import { INT4_MAX } from '../../../contract/common';
import { AuditTargets, type AuditTarget, type Loaded } from './audit-targets';
import { endText, type EndedSession, type SessionEndReason, type SessionEvents } from './sessions';

const API_PREFIX = '/api';
/** Module of the session-level endpoints (own password, sign-out), which no menu guards. */
const SELF_SERVICE_MODULE = '个人中心';
const DOWNLOAD_MSG = '已导出';
/** Names of modules and actions are read from the database at most this often per path. */
const NAMES_TTL_MS = 5_000;
/** Bookkeeping columns every record has; an edit's field-by-field changes leave them out. */
const BOOKKEEPING = new Set(['id', 'version', 'createdAt', 'updatedAt']);

interface AuditState {
  startedAt: bigint;
  /** Read when the request arrives: once its client has gone the socket no longer knows it. */
  ip: string;
  /**
   * Whether the route's schema accepted the request (its handler was reached). Only then is a
   * target read by the id the request names: a refused id may be anything, even a value the
   * database rejects outright (an integer past the column's range).
   */
  accepted: boolean;
  before?: Loaded;
  /** A batch's targets before the call, by id (AuditMeta.targetIds). */
  befores?: Map<number, Loaded>;
  answer?: unknown;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract key the route was registered from (lib/route.ts). */
    endpoint?: string;
  }
  interface FastifyRequest {
    auditState: AuditState | null;
  }
}

export interface Names {
  module: string;
  action: string;
}

export interface SignInAttempt {
  userId: number | null;
  userName: string;
  outcome: LoginOutcome;
  msg: string;
}

export class Audit implements SessionEvents {
  /** What each target type is; features register theirs (audit-targets.ts). */
  readonly targets = new AuditTargets();
  private readonly names = new Map<string, Names & { readAt: number }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Appends operation records; a failure is logged, never thrown. */
  async operations(entries: OperationEntry[], now = Date.now()): Promise<void> {
    try {
      await appendToChain(this.db, 'operation', entries, now);
    } catch (error) {
      this.log.error({ err: error, records: entries.length }, 'operation log write failed');
    }
  }

  /** Appends login-log records, each with its user's unit as it is now; a failure is logged, never thrown. */
  async logins(entries: Array<Omit<LoginEntry, 'orgId'>>, now = Date.now()): Promise<void> {
    try {
      const userIds = [...new Set(entries.map((entry) => entry.userId).filter((id): id is number => id !== null))];
      const units = new Map(
        userIds.length === 0 ? [] : (await this.db.selectFrom('sysUser').select(['id', 'orgId']).where('id', 'in', userIds).execute()).map((row) => [row.id, row.orgId]),
      );
      await appendToChain(
        this.db,
        'login',
        entries.map((entry) => ({ ...entry, orgId: entry.userId === null ? null : (units.get(entry.userId) ?? null) })),
        now,
      );
    } catch (error) {
      this.log.error({ err: error, records: entries.length }, 'login log write failed');
    }
  }

  signIn(request: FastifyRequest, attempt: SignInAttempt): Promise<void> {
    const userAgent = userAgentOf(request.headers);
    return this.logins([{ event: 'signIn', ...attempt, ip: request.ip, ...describeUserAgent(userAgent), userAgent }]);
  }

  async sessionsEnded(sessions: EndedSession[], reason: SessionEndReason, msg?: string): Promise<void> {
    const event: LoginEvent = reason === 'signOut' ? 'signOut' : 'sessionEnd';
    const outcome: LoginOutcome = reason === 'signOut' ? 'success' : reason;
    const text = endText(reason, msg);
    await this.logins(
      sessions.map((s) => ({ event, outcome, userId: s.userId, userName: s.userName, ip: s.ip, ...describeUserAgent(s.userAgent), userAgent: s.userAgent, msg: text })),
    );
  }

  /** The action (resource name) and module (its menu's name) of an API path, briefly cached. */
  async namesOf(path: string): Promise<Names | undefined> {
    const cached = this.names.get(path);
    const now = Date.now();
    if (cached && now - cached.readAt < NAMES_TTL_MS) return cached;
    const row = await this.db
      .selectFrom('sysResource as r')
      .innerJoin('sysMenu as m', 'm.id', 'r.menuId')
      .select(['r.name as action', 'm.name as module'])
      .where('r.path', '=', path)
      .executeTakeFirst();
    if (!row) return undefined;
    this.names.set(path, { ...row, readAt: now });
    return row;
  }

  /** The name of the menu whose element is `element` (e.g. hotel/device), briefly cached. */
  async moduleOf(element: string): Promise<string> {
    const key = `element:${element}`;
    const cached = this.names.get(key);
    const now = Date.now();
    if (cached && now - cached.readAt < NAMES_TTL_MS) return cached.module;
    const row = await this.db.selectFrom('sysMenu').select('name').where('element', '=', element).executeTakeFirst();
    this.names.set(key, { module: row?.name ?? '', action: '', readAt: now });
    return row?.name ?? '';
  }
}

const specOf = (request: FastifyRequest) => {
  const key = request.routeOptions.config.endpoint;
  return key && Object.hasOwn(contract, key) ? contract[key as EndpointKey] : undefined;
};

/** What the contract's request schema describes: the query of a GET or an upload (whose body is the file, never stored). */
const inputOf = (request: FastifyRequest): unknown => {
  const spec = specOf(request);
  return request.method === 'GET' || (spec as { transport?: string } | undefined)?.transport === 'upload' ? request.query : request.body;
};

function at(source: unknown, path: string): unknown {
  let value = source;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** The target id named by the metadata; `data` is the answer's data (absent before the handler ran). */
function targetIdOf(meta: AuditMeta, request: FastifyRequest, data?: unknown): string {
  const spec = meta.targetId;
  const value =
    spec === 'self'
      ? request.user?.userId
      : spec?.startsWith('body.')
        ? at(inputOf(request), spec.slice(5))
        : spec?.startsWith('data.')
          ? at(data, spec.slice(5))
          : (at(inputOf(request), 'id') ?? at(data, 'id'));
  return typeof value === 'number' || typeof value === 'string' ? String(value) : '';
}

/**
 * The target ids of a call: a batch's list (AuditMeta.targetIds) or the one id. A batch refused
 * before its list was valid is recorded once, naming no target.
 */
function targetIdsOf(meta: AuditMeta, request: FastifyRequest, data?: unknown): string[] {
  if (!meta.targetIds) return [targetIdOf(meta, request, data)];
  const ids = at(inputOf(request), meta.targetIds.replace(/^body\./, ''));
  const named = Array.isArray(ids) ? ids.filter((id): id is number | string => typeof id === 'number' || typeof id === 'string').map(String) : [];
  return named.length > 0 ? named : [''];
}

/** The id as a number when it can name a row: a positive integer within an id column's range. */
const numericId = (id: string): number | undefined => (/^[1-9]\d{0,9}$/.test(id) && Number(id) <= INT4_MAX ? Number(id) : undefined);

function titleOf(schemas: unknown[], field: string): string {
  for (const schema of schemas) {
    const title = at(schema, `properties.${field}.title`);
    if (typeof title === 'string') return title;
  }
  return field;
}

function changesOf(target: AuditTarget, bodySchema: unknown, before: Loaded, after: Loaded) {
  const redactedBefore = redact(target.schema, before) as Loaded;
  const redactedAfter = redact(target.schema, after) as Loaded;
  const fields = [...new Set([...Object.keys(redactedBefore), ...Object.keys(redactedAfter)])].filter((f) => !BOOKKEEPING.has(f));
  return fields
    .filter((f) => JSON.stringify(redactedBefore[f] ?? null) !== JSON.stringify(redactedAfter[f] ?? null))
    .map((f) => ({ field: f, title: titleOf([bodySchema, target.schema], f), before: redactedBefore[f] ?? null, after: redactedAfter[f] ?? null }));
}

async function safely<T>(request: FastifyRequest, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    request.log.error({ err: error }, 'audit target read failed');
    return undefined;
  }
}

/** A target's record; a read that answers 404 (a repository's "no such record") means there is none. */
const loadTarget = (request: FastifyRequest, db: FastifyInstance['db'], target: AuditTarget, id: number) =>
  safely(request, async () => {
    try {
      return await target.load(db, id);
    } catch (error) {
      if (error instanceof AppError && error.code === Code.notFound) return undefined;
      throw error;
    }
  });

async function recordCall(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, state: AuditState): Promise<void> {
  const spec = specOf(request);
  const meta: AuditMeta = spec?.audit ?? {};
  const kind = meta.kind ?? 'write';
  if (kind === 'none') return;
  const answer = state.answer as { code?: unknown; msg?: unknown; data?: unknown } | undefined;
  const code = typeof answer?.code === 'number' ? answer.code : reply.statusCode === 200 ? 200 : reply.statusCode;
  const outcome: OperationOutcome = code === 200 ? 'success' : code >= 500 ? 'failed' : 'refused';
  if (kind === 'read' && outcome === 'success') return;
  if (kind === 'check' && (outcome === 'success' || code === Code.invalid)) return;

  const path = (request.routeOptions.url ?? '').slice(API_PREFIX.length);
  const names = (await safely(request, () => app.audit.namesOf(path))) ?? {
    module: request.routeOptions.config.access === 'session' ? SELF_SERVICE_MODULE : '',
    action: meta.action ?? path,
  };
  const target = meta.target ? app.audit.targets.get(meta.target) : undefined;
  const input = inputOf(request);
  const user = request.user;
  const durationMs = Number((process.hrtime.bigint() - state.startedAt) / 1_000_000n);
  // A call refused before its body was read (no session, no permission) has no parameters.
  const params = JSON.stringify(spec?.body && input !== undefined ? (redact(spec.body, input) ?? null) : null);

  const entries: OperationEntry[] = [];
  for (const targetId of targetIdsOf(meta, request, answer?.data)) {
    // A refused request's record names the target as sent, read from nothing.
    const id = state.accepted ? numericId(targetId) : undefined;
    const before = meta.targetIds ? (id === undefined ? undefined : state.befores?.get(id)) : state.before;
    const after = target && id !== undefined && outcome === 'success' ? await loadTarget(request, app.db, target, id) : undefined;
    const known = after ?? before ?? (target && id !== undefined ? await loadTarget(request, app.db, target, id) : undefined);
    // A target gone after a successful write was deleted: its record keeps the before-image.
    const changes = target && before && (after || outcome === 'success') ? changesOf(target, spec?.body, before, after ?? {}) : [];
    const targetOrgId = target?.unit && known ? ((await safely(request, async () => target.unit!(app.db, known))) ?? null) : null;
    entries.push({
      operatorType: user ? 'user' : 'anonymous',
      operatorId: user?.userId ?? null,
      operatorName: user?.userName ?? '',
      module: names.module,
      action: names.action,
      path,
      targetType: meta.target ?? '',
      targetId,
      targetLabel: target && known ? target.label(known) : '',
      outcome,
      code,
      msg: typeof answer?.msg === 'string' ? answer.msg : outcome === 'success' ? DOWNLOAD_MSG : '',
      ip: state.ip,
      durationMs,
      params,
      changes: JSON.stringify(changes),
      actorOrgId: user?.orgId ?? null,
      targetOrgId,
    });
  }
  await app.audit.operations(entries);
}

export const auditPlugin = fp((app: FastifyInstance, _options: unknown, done: () => void) => {
  app.decorateRequest('auditState', null);

  // Every target a route names must have been registered by its feature once all routes are in.
  const named = new Set<AuditTargetType>();
  app.addHook('onRoute', (route) => {
    const key = route.config?.endpoint;
    const target = key && Object.hasOwn(contract, key) ? contract[key as EndpointKey].audit?.target : undefined;
    if (target) named.add(target);
  });
  app.addHook('onReady', (hookDone) => {
    try {
      app.audit.targets.assertRegistered(named);
      hookDone();
    } catch (error) {
      hookDone(error as Error);
    }
  });

  // Registered before the authorization hook, so the clock starts before the session is checked.
  // Routes the contract marks as never recorded (the device heartbeat, thousands a second) carry
  // no state, so the hooks below return at once for them.
  app.addHook('onRequest', (request, _reply, hookDone) => {
    if (!request.is404 && request.routeOptions.url?.startsWith(API_PREFIX) && specOf(request)?.audit?.kind !== 'none') {
      request.auditState = { startedAt: process.hrtime.bigint(), ip: request.ip ?? '', accepted: false };
    }
    hookDone();
  });

  // Reached once the body is valid and the caller allowed: the "before" of an edit is read here.
  app.addHook('preHandler', async (request) => {
    const state = request.auditState;
    if (state) state.accepted = true;
    const meta = specOf(request)?.audit;
    if (!state || !meta?.target || (meta.kind ?? 'write') !== 'write' || meta.targetId?.startsWith('data.')) return;
    const target = app.audit.targets.get(meta.target);
    if (!target) return;
    if (meta.targetIds) {
      state.befores = new Map();
      for (const id of targetIdsOf(meta, request).map(numericId)) {
        const before = id === undefined ? undefined : await loadTarget(request, app.db, target, id);
        if (id !== undefined && before) state.befores.set(id, before);
      }
      return;
    }
    const id = numericId(targetIdOf(meta, request));
    if (id !== undefined) state.before = await loadTarget(request, app.db, target, id);
  });

  app.addHook('preSerialization', (request, _reply, payload, hookDone) => {
    if (request.auditState) request.auditState.answer = payload;
    hookDone(null, payload);
  });

  // Written before the answer leaves, so a client that got its answer finds the record.
  app.addHook('onSend', (request, reply, payload, hookDone) => {
    const state = request.auditState;
    if (!state) return hookDone(null, payload);
    request.auditState = null;
    app.inFlight.track(recordCall(app, request, reply, state)).then(
      () => hookDone(null, payload),
      (error: unknown) => {
        request.log.error({ err: error }, 'operation log write failed');
        hookDone(null, payload);
      },
    );
  });
  done();
});
