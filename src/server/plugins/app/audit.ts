/**
 * The audit trail's one recording point (DESIGN 10). A hook around every /api route writes one
 * operation-log record per state-changing call and per refused or failed call, from the route's
 * contract entry alone: its audit metadata (read or write, target type, where the target id is),
 * its request schema (what to redact) and the database's names for it (the resource guarding the
 * path is the action, its menu the module, so renaming a menu shows in new records). A route added
 * later is recorded without code of its own.
 *
 * Sign-ins, sign-outs and session ends go to the login log (the sign-in route and the session
 * service call `Audit`). Device status changes come from `recordDeviceStatus`. Writing a record
 * never changes an answer: a failure is logged and the user gets what the route answered.
 */
import fp from 'fastify-plugin';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { contract, type EndpointKey } from '../../../contract';
import type { AuditMeta } from '../../../contract/endpoint';
import type { LoginEvent, LoginOutcome } from '../../../contract/monitor/login';
import type { OperationOutcome } from '../../../contract/monitor/operation';
import { appendToChain, type LoginEntry, type OperationEntry } from '../../lib/audit-chain';
import { redact } from '../../lib/redact';
import { describeUserAgent, userAgentOf } from '../../lib/user-agent';
import { auditTargets, type AuditTarget } from './audit-targets';
import type { EndedSession, SessionEndReason, SessionEvents } from './sessions';

const API_PREFIX = '/api';
/** Module of the session-level endpoints (own password, sign-out), which no menu guards. */
const SELF_SERVICE_MODULE = '个人中心';
const SYSTEM_OPERATOR = '系统';
const DOWNLOAD_MSG = '已导出';
/** Names of modules and actions are read from the database at most this often per path. */
const NAMES_TTL_MS = 5_000;
/** Bookkeeping columns every record has; an edit's field-by-field changes leave them out. */
const BOOKKEEPING = new Set(['id', 'version', 'createdAt', 'updatedAt']);

type Loaded = Record<string, unknown>;
interface AuditState {
  startedAt: bigint;
  /** Read when the request arrives: once its client has gone the socket no longer knows it. */
  ip: string;
  before?: Loaded;
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

const END_MESSAGES: Record<Exclude<SessionEndReason, 'signOut'>, string> = {
  expired: '会话已过期',
  passwordChanged: '密码已修改，会话失效',
  disabled: '账号或角色已停用，会话失效',
  forced: '被强制下线',
};

export class Audit implements SessionEvents {
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

  /** Appends login-log records; a failure is logged, never thrown. */
  async logins(entries: LoginEntry[], now = Date.now()): Promise<void> {
    try {
      await appendToChain(this.db, 'login', entries, now);
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
    const text = msg ?? (reason === 'signOut' ? '退出登录' : END_MESSAGES[reason]);
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

export interface StatusDevice {
  id: number;
  name: string;
  sn: string;
}

/** Up to this many devices or alarms of one change get a record each; more (a mass outage) get one summary record. */
export const AUDIT_ITEMIZED = 100;

type SystemEntry = Omit<OperationEntry, 'targetId' | 'targetLabel' | 'msg'>;
interface Itemized<T> {
  /** The first items (all of them up to AUDIT_ITEMIZED); `total` says how many there were. */
  items: T[];
  total: number;
  /** A record's own fields; it may also override common ones (a device is its own operator). */
  record: (item: T) => Pick<OperationEntry, 'targetId' | 'targetLabel' | 'msg'> & Partial<OperationEntry>;
  summary: Pick<OperationEntry, 'targetLabel' | 'msg'>;
}

/**
 * Appends one record per item in one chain append, or a single summary record (no target id) when
 * there are more than AUDIT_ITEMIZED: a mass outage of a hotel group must not write a million chained
 * records (their detail is in hotel_device_transition and hotel_alarm). The module is the menu of
 * `element`, looked up with the names cache.
 */
async function recordSystemChange<T>(
  app: FastifyInstance,
  element: string,
  common: Omit<SystemEntry, 'module'>,
  { items, total, record, summary }: Itemized<T>,
  at: number,
): Promise<void> {
  if (total === 0) return;
  let module = '';
  try {
    module = await app.audit.moduleOf(element);
  } catch (error) {
    app.log.error({ err: error }, 'operation log names lookup failed');
  }
  const entries: OperationEntry[] = total > AUDIT_ITEMIZED ? [{ ...common, module, targetId: '', ...summary }] : items.map((item) => ({ ...common, module, ...record(item) }));
  await app.audit.operations(entries, at);
}

const systemRecord = { operatorId: null, path: '', outcome: 'success', code: 200, ip: '', durationMs: 0, params: 'null' } as const;

/** What one run of changes did, kept for its audit records: the first AUDIT_ITEMIZED items (all of them when there are no more) and the count. */
export class ChangeTally<T> {
  readonly items: T[] = [];
  total = 0;

  add(items: readonly T[]): void {
    this.total += items.length;
    for (const item of items) {
      if (this.full) return;
      this.items.push(item);
    }
  }

  /** Whether it keeps no more items: a caller may then count what it adds (`addCount`) instead of reading the items. */
  get full(): boolean {
    return this.items.length >= AUDIT_ITEMIZED;
  }

  /** Adds `count` to the total, once the tally is full. */
  addCount(count: number): void {
    if (!this.full) throw new Error('ChangeTally.addCount before the tally is full would lose items');
    this.total += count;
  }

  /** The same tally (its total and the items it keeps) with each item mapped. */
  map<U>(mapItem: (item: T) => U): ChangeTally<U> {
    const mapped = new ChangeTally<U>();
    mapped.items.push(...this.items.map(mapItem));
    mapped.total = this.total;
    return mapped;
  }
}

/**
 * Records devices going offline (to 0, by the system's sweep) or coming back online (to 1, by the
 * device's own heartbeat): status changes, never the heartbeats in between. A device that comes
 * back is named as the operator (by its serial number) unless the change is a summary.
 */
export async function recordDeviceStatus(app: FastifyInstance, devices: ChangeTally<StatusDevice>, from: number, to: number, at = Date.now()): Promise<void> {
  if (from === to) return;
  const online = to === 1;
  const { total } = devices;
  await recordSystemChange(
    app,
    'hotel/device',
    {
      ...systemRecord,
      operatorType: online && total <= AUDIT_ITEMIZED ? 'device' : 'system',
      operatorName: SYSTEM_OPERATOR,
      action: online ? '设备上线' : '设备离线',
      path: online ? '/hotel/device/heartbeat' : '',
      targetType: 'device',
      changes: JSON.stringify([{ field: 'online', title: '在线状态', before: from, after: to }]),
    },
    {
      items: devices.items,
      total,
      record: (device) => ({
        ...(online ? { operatorName: device.sn } : {}),
        targetId: String(device.id),
        targetLabel: `${device.name}（${device.sn}）`,
        msg: online ? '设备恢复心跳，状态由离线变为在线' : '设备心跳超时，状态由在线变为离线',
      }),
      summary: {
        targetLabel: `${total} 台设备`,
        msg: online ? `${total} 台设备恢复心跳，状态由离线变为在线` : `${total} 台设备心跳超时，状态由在线变为离线`,
      },
    },
    at,
  );
}

/**
 * Records alarms the system raised (a device went offline) or cleared (it came back), one record per
 * alarm or a summary like recordDeviceStatus. A repeat of an active alarm is not a new event (its
 * count says it); staff acknowledging or clearing is recorded by the route's own call.
 */
export async function recordAlarmEvents(
  app: FastifyInstance,
  alarms: ChangeTally<{ id: number; device: StatusDevice }>,
  event: 'raised' | 'cleared',
  at = Date.now(),
): Promise<void> {
  const raised = event === 'raised';
  const { total } = alarms;
  await recordSystemChange(
    app,
    'hotel/alarm',
    { ...systemRecord, operatorType: 'system', operatorName: SYSTEM_OPERATOR, action: raised ? '告警产生' : '告警清除', targetType: 'alarm', changes: '[]' },
    {
      items: alarms.items,
      total,
      record: ({ id, device }) => ({
        targetId: String(id),
        targetLabel: `离线告警：${device.name}（${device.sn}）`,
        msg: raised ? '设备离线，产生离线告警' : '设备恢复在线，离线告警自动清除',
      }),
      summary: {
        targetLabel: `${total} 条离线告警`,
        msg: raised ? `${total} 台设备离线，产生离线告警` : `${total} 台设备恢复在线，离线告警自动清除`,
      },
    },
    at,
  );
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

const numericId = (id: string): number | undefined => (/^[1-9]\d{0,9}$/.test(id) ? Number(id) : undefined);

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

async function recordCall(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, state: AuditState): Promise<void> {
  const spec = specOf(request);
  const meta: AuditMeta = spec?.audit ?? {};
  const kind = meta.kind ?? 'write';
  if (kind === 'none') return;
  const answer = state.answer as { code?: unknown; msg?: unknown; data?: unknown } | undefined;
  const code = typeof answer?.code === 'number' ? answer.code : reply.statusCode === 200 ? 200 : reply.statusCode;
  const outcome: OperationOutcome = code === 200 ? 'success' : code >= 500 ? 'failed' : 'refused';
  if (kind === 'read' && outcome === 'success') return;

  const path = (request.routeOptions.url ?? '').slice(API_PREFIX.length);
  const names = (await safely(request, () => app.audit.namesOf(path))) ?? {
    module: request.routeOptions.config.access === 'session' ? SELF_SERVICE_MODULE : '',
    action: meta.action ?? path,
  };
  const target = meta.target ? auditTargets[meta.target] : undefined;
  const targetId = targetIdOf(meta, request, answer?.data);
  const id = numericId(targetId);
  const after = target && id !== undefined && outcome === 'success' ? await safely(request, () => target.load(app.db, id)) : undefined;
  const known = after ?? state.before ?? (target && id !== undefined ? await safely(request, () => target.load(app.db, id)) : undefined);
  const changes = target && state.before && after ? changesOf(target, spec?.body, state.before, after) : [];
  const input = inputOf(request);
  const user = request.user;

  await app.audit.operations([
    {
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
      durationMs: Number((process.hrtime.bigint() - state.startedAt) / 1_000_000n),
      // A call refused before its body was read (no session, no permission) has no parameters.
      params: JSON.stringify(spec?.body && input !== undefined ? (redact(spec.body, input) ?? null) : null),
      changes: JSON.stringify(changes),
    },
  ]);
}

export const auditPlugin = fp((app: FastifyInstance, _options: unknown, done: () => void) => {
  app.decorateRequest('auditState', null);

  // Registered before the authorization hook, so the clock starts before the session is checked.
  // Routes the contract marks as never recorded (the device heartbeat, thousands a second) carry
  // no state, so the hooks below return at once for them.
  app.addHook('onRequest', (request, _reply, hookDone) => {
    if (!request.is404 && request.routeOptions.url?.startsWith(API_PREFIX) && specOf(request)?.audit?.kind !== 'none') {
      request.auditState = { startedAt: process.hrtime.bigint(), ip: request.ip ?? '' };
    }
    hookDone();
  });

  // The "before" of an edit, read once the body is valid and the caller allowed.
  app.addHook('preHandler', async (request) => {
    const state = request.auditState;
    const meta = specOf(request)?.audit;
    if (!state || !meta?.target || (meta.kind ?? 'write') !== 'write' || meta.targetId?.startsWith('data.')) return;
    const id = numericId(targetIdOf(meta, request));
    const target = auditTargets[meta.target];
    if (id !== undefined) state.before = await safely(request, () => target.load(app.db, id));
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
