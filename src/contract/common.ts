/**
 * Shapes every endpoint shares: the envelope, the business codes, paging, and field builders that
 * carry a Chinese title so validation messages can name the field (see server/plugins/app/errors).
 */
import { Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox';

import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants';

/** Filters are optional and closed: an unknown filter key is a 400, never silently ignored. */
export function pagedRequest<F extends TProperties>(filters: F) {
  return Type.Object(
    {
      size: Type.Integer({ title: '每页条数', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT }),
      current: Type.Integer({ title: '页码', minimum: 1, maximum: 1_000_000, default: 1 }),
      params: Type.Optional(Type.Partial(Type.Object(filters, { additionalProperties: false }))),
    },
    { additionalProperties: false },
  );
}

export function paged<T extends TSchema>(record: T) {
  return Type.Object({
    records: Type.Array(record),
    current: Type.Integer(),
    size: Type.Integer(),
    total: Type.Integer(),
  });
}

/** Field builders. `title` is the Chinese field name used in validation messages. */
export const field = {
  id: (title = '编号') => Type.Integer({ title, minimum: 1, maximum: 2_147_483_647 }),
  text: (title: string, max: number, opts: { min?: number; pattern?: string; patternHint?: string } = {}) =>
    Type.String({
      title,
      minLength: opts.min ?? 1,
      maxLength: max,
      // Names and codes must not start or end with blanks; a pattern hint explains the rule.
      pattern: opts.pattern ?? '^\\S(.*\\S)?$',
      patternHint: opts.patternHint ?? '不能以空格开头或结尾',
    }),
  /** Free text such as a remark: may be empty. */
  note: (title: string, max: number) => Type.String({ title, maxLength: max }),
  /** 1 = enabled / yes, 0 = disabled / no. */
  flag: (title: string) => Type.Integer({ title, minimum: 0, maximum: 1 }),
  int: (title: string, min: number, max: number) => Type.Integer({ title, minimum: min, maximum: max }),
  /** Epoch milliseconds. */
  time: () => Type.Integer(),
  nullable: <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]),
};

/** Optimistic locking: an edit sends back the version it read; a stale one is a 409. */
export const versioned = { version: Type.Integer({ title: '版本', minimum: 0 }) };

export const Empty = Type.Null();
export const IdBody = Type.Object({ id: field.id() }, { additionalProperties: false });
export type IdBody = Static<typeof IdBody>;

export type { Static };
export * from './constants';
