/**
 * Spreadsheet import of a list (users, devices): the file is the request body (XLSX_MIME, at most
 * IMPORT_MAX_BYTES); the query says whether to preview or apply and whether rows whose key
 * (userName / sn) exists update that record or are errors. A preview writes nothing; an apply
 * writes every row in one transaction or, if any row is wrong, nothing.
 */
import { Type } from '@sinclair/typebox';

export const ImportQuery = Type.Object(
  {
    mode: Type.Union([Type.Literal('preview'), Type.Literal('apply')], { title: '导入方式' }),
    /** '1': a row whose key exists updates that record; otherwise such a row is an error. */
    updateExisting: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1')], { title: '更新已有记录' })),
  },
  { additionalProperties: false },
);

/** One problem: the spreadsheet row number (the header is row 1), the column, the reason. */
export const ImportRowError = Type.Object({ row: Type.Integer(), field: Type.String(), reason: Type.String() });

/** A secret issued to a created record (a user's initial password, a device's key), shown once. */
export const IssuedCredential = Type.Object({ row: Type.Integer(), key: Type.String(), secret: Type.String() });

export const ImportSummary = Type.Object({
  /** 1 when written (apply), 0 for a preview. */
  applied: Type.Integer(),
  /** Data rows read (blank rows are skipped). */
  total: Type.Integer(),
  /** Rows that create a record (preview: would create). */
  created: Type.Integer(),
  updated: Type.Integer(),
  /** Rows with at least one error. */
  failed: Type.Integer(),
  errors: Type.Array(ImportRowError),
  credentials: Type.Array(IssuedCredential),
});
