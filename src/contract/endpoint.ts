/**
 * An endpoint is a path plus its request and answer schemas. The server registers routes from these
 * (validation + serialisation); the client takes only their types, so no schema code ships to the
 * browser. An endpoint also says how the audit hook records its calls (server/plugins/app/audit.ts).
 */
import { Type, type Static, type TNull, type TSchema } from '@sinclair/typebox';

/** What a recorded call acted on; each type has a loader for its before/after values on the server. */
export const AUDIT_TARGET_TYPES = [
  'user',
  'role',
  'menu',
  'resource',
  'dict',
  'schedule',
  'device',
  'advanced',
  'session',
  'location',
  'alarm',
  'channel',
  'message',
  'rule',
  'maintenance',
  'org',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/**
 * How the operation log records an endpoint's calls. With no entry a call is recorded as a write,
 * so an endpoint added later is audited without anything of its own.
 */
export interface AuditMeta {
  /**
   * write (the default): every call is recorded. read: only a refused or failed call is recorded.
   * none: never in the operation log, because another log holds it (sign-in -> login log, the
   * device heartbeat -> device status changes). check: a read that checks what a person is typing
   * (a cron preview): a refusal of that input is the answer, not an operation, so only a call
   * refused for access or failed is recorded.
   */
  kind?: 'write' | 'read' | 'check' | 'none';
  /** The kind of record the call acts on. */
  target?: AuditTargetType;
  /**
   * Where the target's id is: `body.<path>` (the request), `data.<path>` (the answer) or `self` (the
   * caller). Default: `body.id`, else `data.id`.
   */
  targetId?: string;
  /** The action's name where no resource guards the path (session-level endpoints). */
  action?: string;
  /**
   * A batch: where its list of target ids is (`body.ids`). The call is recorded once per id, each
   * record with that target's before/after, instead of once with `targetId`.
   */
  targetIds?: string;
}

/**
 * The scoped data an endpoint reads or writes: the server answers it only with the rows of the
 * caller's data scope (their unit and their role's scope), and a generated test sweeps every
 * endpoint that declares one. `log`: the operation and login logs (by the actor's and the target's
 * unit); `advanced`: a hotel's integration settings; `message`: notification records (by their
 * alarm's device). Configuration (menus, resources, dictionaries, roles, schedules, notification
 * channels, rules and maintenance windows) declares none: function permission alone governs it.
 */
export const SCOPED_ENTITIES = ['org', 'user', 'location', 'device', 'log', 'advanced', 'message'] as const;
export type ScopedEntity = (typeof SCOPED_ENTITIES)[number];

export interface EndpointSpec<B extends TSchema | null = TSchema | null, D extends TSchema = TSchema> {
  method: 'POST' | 'GET';
  /** POST: the JSON body (an upload's query string); GET: the query string. */
  body: B;
  data: D;
  audit?: AuditMeta;
  /**
   * download: success answers a file or text stream, not the envelope (a refusal is the envelope); upload: the request body is
   * a file (UPLOAD_TYPES), its options travel in the query string, the answer is the envelope.
   */
  transport?: 'download' | 'upload';
  /** The scoped entity whose rows it touches (see SCOPED_ENTITIES). */
  scope?: ScopedEntity;
}

/** Declares the scoped entity an endpoint touches. */
export const scoped = <E extends EndpointSpec, S extends ScopedEntity>(scope: S, spec: E) => ({ ...spec, scope }) as E & { scope: S };

/** Inquiries, details, previews: changing nothing, recorded only when refused or failed. */
export const reads: AuditMeta = { kind: 'read' };
/** Checks of input being typed (a cron preview): recorded only when refused for access or failed. */
export const checks: AuditMeta = { kind: 'check' };
/** The target of a recorded write, with where its id is when not `body.id` / `data.id`. */
export const acts = (target: AuditTargetType, targetId?: string, action?: string): AuditMeta => ({
  target,
  ...(targetId ? { targetId } : {}),
  ...(action ? { action } : {}),
});

/** A batch write recorded once per target, its ids at `targetIds` (e.g. `body.ids`). */
export const actsOnEach = (target: AuditTargetType, targetIds: string): AuditMeta => ({ target, targetIds });

export const post = <B extends TSchema, D extends TSchema>(body: B, data: D, audit?: AuditMeta) =>
  ({ method: 'POST', body, data, ...(audit ? { audit } : {}) }) as const satisfies EndpointSpec<B, D>;
export const postEmpty = <D extends TSchema>(data: D, audit?: AuditMeta) =>
  ({ method: 'POST', body: null, data, ...(audit ? { audit } : {}) }) as const satisfies EndpointSpec<null, D>;
export const get = <Q extends TSchema | null, D extends TSchema>(query: Q, data: D, audit?: AuditMeta) =>
  ({ method: 'GET', body: query, data, ...(audit ? { audit } : {}) }) as const satisfies EndpointSpec<Q, D>;
/**
 * A file download (e.g. an .xlsx export): a JSON body (or none) in, a file stream out (content-
 * disposition names it); a refusal is still the JSON envelope. Exports are recorded as writes.
 */
export const download = <B extends TSchema | null>(body: B, audit?: AuditMeta) =>
  ({ method: 'POST', body, data: Type.Null(), transport: 'download', ...(audit ? { audit } : {}) }) as const satisfies EndpointSpec<B, TNull>;
/** A file upload (e.g. an .xlsx import): the file is the body, `query` its options. */
export const upload = <Q extends TSchema, D extends TSchema>(query: Q, data: D, audit?: AuditMeta) =>
  ({ method: 'POST', body: query, data, transport: 'upload', ...(audit ? { audit } : {}) }) as const satisfies EndpointSpec<Q, D>;

export type BodyOfSpec<E> = E extends { body: infer B } ? (B extends TSchema ? Static<B> : void) : never;
export type DataOfSpec<E> = E extends { data: infer D extends TSchema } ? Static<D> : never;

/** The URL path under /api for an endpoint key ("GET /x" -> "/x"). */
export const pathOfKey = (key: string): string => key.replace(/^GET /, '');
