/**
 * Shapes every endpoint shares: the envelope, the business codes, paging, and field builders that
 * carry a Chinese title so validation messages can name the field (see server/plugins/app/errors).
 */
import { OptionalKind, Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';

import { BATCH_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants';

/**
 * A list's sort: one of its enumerated keys (the server maps each to a column; no column name or
 * SQL comes from the request: docs/API.md, sorting) and antd's direction. An unknown key is a 400.
 */
export function sortRequest<S extends string>(keys: readonly S[]) {
  return Type.Object(
    {
      field: Type.Union(
        keys.map((key) => Type.Literal(key)),
        { title: '排序字段' },
      ),
      order: Type.Union([Type.Literal('ascend'), Type.Literal('descend')], { title: '排序方向' }),
    },
    { additionalProperties: false },
  );
}

/** The paging fields of every list request. */
export function pageFields(sizeDefault = PAGE_SIZE_DEFAULT) {
  return {
    size: Type.Integer({ title: '每页条数', minimum: 1, maximum: PAGE_SIZE_MAX, default: sizeDefault }),
    current: Type.Integer({ title: '页码', minimum: 1, maximum: 1_000_000, default: 1 }),
    /**
     * The id of the last row the pager showed, sent when it steps one page on: a list that can
     * grow without bound then reads on from that row instead of skipping (current - 1) * size
     * rows (docs/API.md, Paging). Other lists, and a row since deleted, page as without it.
     */
    after: Type.Optional(Type.Integer({ title: '上一页末行', minimum: 1, maximum: INT4_MAX })),
  };
}

/** Filters are optional and closed: an unknown filter key is a 400, never silently ignored. */
export function pagedRequest<F extends TProperties, S extends string = never>(filters: F, sortKeys: readonly S[] = []) {
  return Type.Object(
    {
      ...pageFields(),
      params: Type.Optional(Type.Partial(Type.Object(filters, { additionalProperties: false }))),
      sort: Type.Optional(sortRequest(sortKeys)),
    },
    { additionalProperties: false },
  );
}

/** The export of a list takes what its inquiry takes but the paging: the filters and the sort. */
export function listExport<P extends TSchema, S extends TSchema>(inquiry: TObject<{ size: TSchema; current: TSchema; params: P; sort: S }>) {
  return Type.Object({ params: inquiry.properties.params, sort: inquiry.properties.sort }, { additionalProperties: false });
}

export function paged<T extends TSchema>(record: T) {
  return Type.Object({
    records: Type.Array(record),
    current: Type.Integer(),
    size: Type.Integer(),
    total: Type.Integer(),
    /**
     * Lists that can grow without bound (devices, users, the audit logs) count only up to 10,000
     * rows: past that `total` is a lower bound, this is true, and the pager shows "10,000+" and
     * always offers the next page; the page where the list ends answers the exact total. A
     * lower bound may be a few seconds old (docs/API.md, Paging); an exact total never is.
     */
    totalIsLowerBound: Type.Boolean(),
  });
}

/** The largest value of a PostgreSQL `integer` column (and of every id). */
export const INT4_MAX = 2_147_483_647;
/** The latest instant a time filter takes (9999-12-31, epoch ms): times live in bigint columns. */
export const INSTANT_MAX = 253_402_300_799_999;

/**
 * Text rules (server keyword `textRule`): `line` refuses every control character (Unicode Cc:
 * U+0000-U+001F, U+007F-U+009F) and unpaired surrogates; `multiline` also lets a remark hold
 * tabs and line breaks. PostgreSQL cannot store NUL at all, and the others only ever arrive by
 * accident or to hide text from the person reading it. Every request string carries one of them.
 */
export type TextRule = 'line' | 'multiline';

/**
 * A body field that may be left out: the schema marks it optional with a default, and the server's
 * validator fills the default in (Ajv `useDefaults`) before any handler runs. Its TypeScript type
 * stays required, because after validation it is always there; the client sends it anyway.
 * Sent with a wrong value, it gets the same Chinese message as before.
 */
export const defaulted = <T extends TSchema>(schema: T, value: Static<T>): T => ({ ...schema, default: value, [OptionalKind]: 'Optional' });

/** Field builders. `title` is the Chinese field name used in validation messages. */
export const field = {
  id: (title = '编号') => Type.Integer({ title, minimum: 1, maximum: INT4_MAX }),
  text: (title: string, max: number, opts: { min?: number; pattern?: string; patternHint?: string } = {}) =>
    Type.String({
      title,
      minLength: opts.min ?? 1,
      maxLength: max,
      // Names and codes must not start or end with blanks; a pattern hint explains the rule.
      pattern: opts.pattern ?? '^\\S(.*\\S)?$',
      patternHint: opts.patternHint ?? '不能以空格开头或结尾',
      textRule: 'line' satisfies TextRule,
    }),
  /** One line of free text, a filter or a formatted code: may be empty unless `min` says otherwise. */
  note: (title: string, max: number, opts: { min?: number; pattern?: string; patternHint?: string } = {}) =>
    Type.String({
      title,
      maxLength: max,
      ...(opts.min !== undefined ? { minLength: opts.min } : {}),
      ...(opts.pattern !== undefined ? { pattern: opts.pattern, patternHint: opts.patternHint } : {}),
      textRule: 'line' satisfies TextRule,
    }),
  /** A remark typed in a text area: may be empty (or left out) and span lines. */
  remark: (title = '备注', max = 200) => defaulted(Type.String({ title, maxLength: max, textRule: 'multiline' satisfies TextRule }), ''),
  /** 1 = enabled / yes, 0 = disabled / no. */
  flag: (title: string) => Type.Integer({ title, minimum: 0, maximum: 1 }),
  /** An integer in [min, max]; `fallback` is what a form starts with (e.g. a task's 保留天数). */
  int: (title: string, min: number, max: number, fallback?: number) =>
    Type.Integer({ title, minimum: min, maximum: max, ...(fallback === undefined ? {} : { default: fallback }) }),
  /** Epoch milliseconds. */
  time: () => Type.Integer(),
  nullable: <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]),
  /**
   * A credential (password, device key, app secret, token). The `secret` mark is how the server
   * knows never to write the value anywhere: audit records carry it redacted.
   */
  secret: (title: string, min: number, max: number) => Type.String({ title, minLength: min, maxLength: max, secret: true, textRule: 'line' satisfies TextRule }),
  /** A point in time as a filter bound (epoch milliseconds). */
  instant: (title: string) => Type.Integer({ title, minimum: 0, maximum: INSTANT_MAX }),
};

/** True for a schema marked as a credential (see field.secret). */
export const isSecret = (schema: unknown): boolean => (schema as { secret?: unknown } | null)?.secret === true;

/**
 * Optimistic locking: an edit sends back the version it read; a stale one is a 409. The edit
 * writes version + 1, so the largest version it accepts is one below what the column holds.
 */
export const versioned = { version: Type.Integer({ title: '版本', minimum: 0, maximum: INT4_MAX - 1 }) };

export const Empty = Type.Null();
export const IdBody = Type.Object({ id: field.id() }, { additionalProperties: false });
export type IdBody = Static<typeof IdBody>;

/**
 * A batch action names its rows by id. It is all or nothing: one refused row refuses the whole
 * batch, and the refusal's `errors` name each refused row (`ids.<index>`) with its reason.
 */
export const batchIds = (title: string) => Type.Array(field.id(title), { title, minItems: 1, maxItems: BATCH_MAX, uniqueItems: true });
export const batchState = (title: string) => Type.Object({ ids: batchIds(title), state: field.flag('状态') }, { additionalProperties: false });
export const BatchDone = Type.Object({ count: Type.Integer() });

export type { Static };
export * from './constants';
