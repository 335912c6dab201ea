/**
 * File transfers against the test app: downloads (exports, templates) read back with exceljs, and
 * .xlsx uploads (imports) built in memory.
 */
import ExcelJS from 'exceljs';
import type { TestApp } from './harness';
import type { Envelope } from '../../../src/contract/constants';
import { XLSX_MIME } from '../../../src/contract/constants';

export interface Downloaded {
  /** Set when the server answered the envelope instead of a file (a refusal). */
  envelope?: Envelope<unknown>;
  type: string;
  disposition: string;
  /** Rows of the first sheet as cell values, header row first. */
  rows: unknown[][];
  book?: ExcelJS.Workbook;
}

export function sheetRows(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

export async function download(app: TestApp, path: string, body: unknown, token: string): Promise<Downloaded> {
  const response = await app.app.inject({ method: 'POST', url: `/api${path}`, headers: { authorization: `Bearer ${token}` }, payload: body ?? {} });
  if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${response.body}`);
  const type = String(response.headers['content-type'] ?? '');
  const disposition = String(response.headers['content-disposition'] ?? '');
  if (type.includes('application/json')) return { envelope: response.json(), type, disposition, rows: [] };
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  return { type, disposition, rows: sheetRows(book.worksheets[0]), book };
}

/** An .xlsx file whose first sheet holds `rows` (header row first). */
export async function xlsxFile(rows: unknown[][], sheetName = '导入数据'): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(sheetName);
  rows.forEach((row) => sheet.addRow(row));
  return Buffer.from(await book.xlsx.writeBuffer());
}

export async function upload<T>(app: TestApp, path: string, query: Record<string, string>, file: Buffer, token: string, type = XLSX_MIME): Promise<Envelope<T>> {
  const response = await app.app.inject({
    method: 'POST',
    url: `/api${path}`,
    query,
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    payload: file,
  });
  if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${response.body}`);
  return response.json();
}
