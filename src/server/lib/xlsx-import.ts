/**
 * Reading .xlsx imports: the upload itself (the file is the request body, up to IMPORT_MAX_BYTES,
 * accepted only as XLSX_MIME), the rows of its first sheet by column header, per-row problems in
 * the words of the contract's validation messages, and the blank template a user fills in.
 */
import type ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { IMPORT_MAX_BYTES, XLSX_MIME } from '../../contract/constants';
import { invalid } from './errors';
import { describeValidationError, firstIssue, validationMessage, type ValidationIssue } from './validation-messages';
import { XLSX_TYPE } from './xlsx';

/** ExcelJS costs ~25 MB once loaded: only an import or a template loads it, not every server start. */
const excel = async () => (await import('exceljs')).default;

/** Uncompressed size a file may declare: a few MB of spreadsheet, not a zip bomb. */
const MAX_UNZIPPED_BYTES = 64 * 1024 * 1024;

/** Lets routes under `app` take an .xlsx file as the request body (the JSON limit does not apply). */
export function acceptXlsxUploads(app: FastifyInstance): void {
  app.addContentTypeParser(XLSX_MIME, { parseAs: 'buffer', bodyLimit: IMPORT_MAX_BYTES }, (_request, body, done) => done(null, body));
}

/** The uploaded file, or a 400 when the body is not one (e.g. JSON sent to an import). */
export function uploadedFile(request: FastifyRequest): Buffer {
  if (!Buffer.isBuffer(request.body) || request.body.length === 0) throw invalid(`请上传 .xlsx 文件（Content-Type: ${XLSX_MIME}）`);
  return request.body;
}

/**
 * Refuses a zip whose entries declare more than MAX_UNZIPPED_BYTES in all (read from the central
 * directory, before anything is inflated), and anything that is not a zip at all.
 */
function assertReasonableZip(file: Buffer): void {
  const notXlsx = () => invalid('文件不是有效的 .xlsx 表格');
  const END = 0x06054b50;
  const ENTRY = 0x02014b50;
  let end = -1;
  for (let at = file.length - 22; at >= Math.max(0, file.length - 22 - 0xffff); at -= 1) {
    if (file.readUInt32LE(at) === END) {
      end = at;
      break;
    }
  }
  if (end < 0) throw notXlsx();
  const entries = file.readUInt16LE(end + 10);
  let at = file.readUInt32LE(end + 16);
  let total = 0;
  for (let index = 0; index < entries; index += 1) {
    if (at + 46 > file.length || file.readUInt32LE(at) !== ENTRY) throw notXlsx();
    total += file.readUInt32LE(at + 24);
    at += 46 + file.readUInt16LE(at + 28) + file.readUInt16LE(at + 30) + file.readUInt16LE(at + 32);
  }
  if (total > MAX_UNZIPPED_BYTES) throw invalid('文件内容过大，请拆分后分批导入');
}

/** A cell as the text a user sees; formulas count by their cached result. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('formula' in value || 'sharedFormula' in value) return cellText((value as ExcelJS.CellFormulaValue).result);
  if ('text' in value) return cellText(value.text);
  return '';
}

/** Our exports write formula-like text with a leading quote (xlsx.ts neutralise); a re-import takes it back off. */
const unneutralise = (text: string) => (/^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text);

export interface ImportColumn<K extends string> {
  key: K;
  /** The header in the file (the template marks required columns with *). */
  header: string;
  required?: boolean;
}

export interface SheetRow<K extends string> {
  /** The spreadsheet's row number: the header is row 1. */
  row: number;
  /** Trimmed text per column; '' for an empty cell. */
  cells: Record<K, string>;
}

/**
 * The data rows of the file's first sheet, by header (columns the import does not know, such as
 * an export's times, are ignored; blank rows skipped). File-level problems are a 400.
 */
export async function readSheet<K extends string>(file: Buffer, columns: readonly ImportColumn<K>[], maxRows: number): Promise<SheetRow<K>[]> {
  assertReasonableZip(file);
  const book = new (await excel()).Workbook();
  try {
    await book.xlsx.load(file as unknown as ArrayBuffer);
  } catch {
    throw invalid('文件不是有效的 .xlsx 表格');
  }
  const sheet = book.worksheets[0];
  if (!sheet) throw invalid('文件中没有工作表');
  const headerAt = new Map<string, number>();
  sheet.getRow(1).eachCell((cell, column) => headerAt.set(cellText(cell.value).trim().replace(/\*$/, '').trim(), column));
  const missing = columns.filter((column) => column.required && !headerAt.has(column.header));
  if (missing.length > 0) throw invalid(`缺少列：${missing.map((column) => column.header).join('、')}（请使用导入模板）`);

  const rows: SheetRow<K>[] = [];
  for (let number = 2; number <= sheet.rowCount; number += 1) {
    const line = sheet.getRow(number);
    const cells = {} as Record<K, string>;
    let blank = true;
    for (const column of columns) {
      const at = headerAt.get(column.header);
      const text = at === undefined ? '' : unneutralise(cellText(line.getCell(at).value).trim());
      if (text !== '') blank = false;
      cells[column.key] = text;
    }
    if (blank) continue;
    if (rows.length === maxRows) throw invalid(`每次最多导入 ${maxRows} 行，请拆分后分批导入`);
    rows.push({ row: number, cells });
  }
  if (rows.length === 0) throw invalid('文件中没有数据行');
  return rows;
}

export interface RowProblem {
  field: string;
  reason: string;
}

/**
 * Checks a row's body with the endpoint's own schema, compiled by the same validator as the route
 * bodies, so the reason reads exactly as the 400 of the screen's dialog would.
 */
export function schemaProblem(request: FastifyRequest, schema: TSchema, body: unknown, headers: Record<string, string>): RowProblem | null {
  const validate = request.compileValidationSchema(schema, 'body');
  if (validate(body)) return null;
  const errors = (validate.errors ?? []) as unknown as ValidationIssue[];
  const issue = firstIssue(errors);
  if (!issue) return { field: '', reason: validationMessage(errors) };
  const named = issue.params.missingProperty ?? issue.params.additionalProperty;
  const key = typeof named === 'string' ? named : (issue.instancePath.split('/').filter(Boolean)[0] ?? '');
  return { field: headers[key] ?? key, reason: describeValidationError(issue) };
}

/** The blank template of an import: the header row (required columns marked *) and a notes sheet. */
export async function sendTemplate(reply: FastifyReply, fileName: string, columns: readonly ImportColumn<string>[], notes: string[]): Promise<FastifyReply> {
  const book = new (await excel()).Workbook();
  const sheet = book.addWorksheet('导入数据');
  sheet.columns = columns.map((column) => ({
    header: column.required ? `${column.header}*` : column.header,
    width: 18,
    // Text cells keep serial numbers such as 0012 as typed.
    style: { numFmt: '@' },
  }));
  sheet.getRow(1).font = { bold: true };
  const help = book.addWorksheet('填写说明');
  help.getColumn(1).width = 100;
  notes.forEach((note) => help.addRow([note]));
  const file = Buffer.from(await book.xlsx.writeBuffer());
  return reply
    .type(XLSX_TYPE)
    .header('content-disposition', `attachment; filename="template.xlsx"; filename*=UTF-8''${encodeURIComponent(`${fileName}.xlsx`)}`)
    .header('cache-control', 'no-store')
    .send(file);
}

export interface RowError extends RowProblem {
  row: number;
}

/** What an import would do: the rows that create or update a record, and every problem found. */
export interface ImportPlan<C, U> {
  total: number;
  creates: Array<{ row: number; value: C }>;
  updates: Array<{ row: number; value: U }>;
  errors: RowError[];
}

export function failedRows(plan: ImportPlan<unknown, unknown>): number {
  return new Set(plan.errors.map((error) => error.row)).size;
}

export function previewSummary(plan: ImportPlan<unknown, unknown>) {
  return {
    applied: 0,
    total: plan.total,
    created: plan.creates.length,
    updated: plan.updates.length,
    failed: failedRows(plan),
    errors: plan.errors,
    credentials: [],
  };
}

export const previewMsg = (plan: ImportPlan<unknown, unknown>) => `预览完成：可新增 ${plan.creates.length} 条，可更新 ${plan.updates.length} 条，有错误 ${failedRows(plan)} 行`;

/** All or nothing: one wrong row refuses the whole apply, naming the first problem. */
export function assertApplicable(plan: ImportPlan<unknown, unknown>): void {
  const first = plan.errors[0];
  if (!first) return;
  throw invalid(`导入未执行：${failedRows(plan)} 行有错误，未写入任何数据（第 ${first.row} 行 ${first.field}：${first.reason}）`);
}
