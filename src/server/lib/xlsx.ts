/**
 * Streamed .xlsx answers for exports: rows are written to the response as they are read, so a
 * million-row export holds one batch in memory, not the file. Text that a spreadsheet would take for
 * a formula (= + - @, and tab / carriage return that hide one) is neutralised with a leading quote.
 *
 * The workbook is written here, not with ExcelJS: ExcelJS's "streaming" writer builds the whole zip
 * in memory (JSZip) when the workbook is committed, so a million rows took about 800 MB and sent
 * nothing until the end. An .xlsx is a zip of a few small XML parts and one sheet; the sheet's XML
 * is deflated in slices as rows arrive and written out with the zip's data descriptors.
 */
import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import zlib from 'node:zlib';
import type { FastifyReply } from 'fastify';
import { XLSX_MIME } from '../../contract/constants';
import { yieldToEventLoop } from './event-loop';

export type CellValue = string | number | null;

export interface XlsxColumn<T> {
  /** Chinese header shown in the first row. */
  header: string;
  width?: number;
  value: (row: T) => CellValue | undefined;
}

export interface XlsxExport<T> {
  /** File name without extension, e.g. 用户列表; a timestamp is added. */
  fileName: string;
  sheetName?: string;
  columns: XlsxColumn<T>[];
  rows: AsyncIterable<T>;
}

export const XLSX_TYPE = XLSX_MIME;

const FORMULA_START = /^[=+\-@\t\r]/;

export function neutralise(value: CellValue | undefined): CellValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A sheet holds at most 1,048,576 rows (the header and 1,048,575 records); later rows are not written. */
export const XLSX_MAX_ROWS = 1_048_576;
/** Sheet XML is deflated in slices of about this many characters. */
const SLICE = 64 * 1024;
/** Fastest deflate: sheet XML repeats itself, so it still shrinks about tenfold, at a third of the default level's time. */
const DEFLATE_LEVEL = 1;

/** XML 1.0 allows neither these control characters nor lone surrogates; a spreadsheet refuses the file. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const escapeXml = (text: string) => text.replace(NOT_XML, '').replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));

/** A, B, ..., Z, AA, ... */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function cellXml(ref: string, value: CellValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return `<c r="${ref}"><v>${value}</v></c>`;
  const text = escapeXml(value);
  const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : '';
  return `<c r="${ref}" t="inlineStr"><is><t${space}>${text}</t></is></c>`;
}

const rowXml = (index: number, letters: string[], values: CellValue[]) => `<row r="${index}">${values.map((value, i) => cellXml(`${letters[i]}${index}`, value)).join('')}</row>`;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function packageParts(sheetName: string): Array<[string, string]> {
  // Excel's rules for a sheet name: at most 31 characters, none of : \ / ? * [ ].
  const name = escapeXml(sheetName.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) || 'Sheet1');
  return [
    [
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    ],
    ['_rels/.rels', `${XML_HEAD}<Relationships xmlns="${REL_NS}"><Relationship Id="rId1" Type="${DOC_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
    ['xl/workbook.xml', `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${DOC_REL}"><sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="${REL_NS}"><Relationship Id="rId1" Type="${DOC_REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${DOC_REL}/styles" Target="styles.xml"/></Relationships>`,
    ],
    [
      'xl/styles.xml',
      `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs></styleSheet>`,
    ],
  ];
}

/**
 * A zip written front to back: each entry's sizes and checksum follow its data (a data
 * descriptor), so nothing has to be held back. Zip32 limits (4 GB) are far above a sheet's rows.
 */
class ZipWriter {
  private offset = 0;
  private readonly entries: Array<{ name: Buffer; crc: number; compressed: number; size: number; start: number }> = [];
  /** MS-DOS time and date of the entries: now. */
  private readonly stamp: [number, number];

  constructor(private readonly out: PassThrough) {
    const d = new Date();
    this.stamp = [(d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1), ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate()];
  }

  private async put(data: Buffer): Promise<void> {
    this.offset += data.length;
    if (!this.out.write(data)) await once(this.out, 'drain');
  }

  /** One entry, its text deflated slice by slice (each slice sync-flushed, the last block final). */
  async file(name: string, slices: AsyncIterable<string> | Iterable<string>): Promise<void> {
    const nameBytes = Buffer.from(name, 'utf8');
    const start = this.offset;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    // Bit 3: sizes in a data descriptor; bit 11: the name is UTF-8.
    header.writeUInt16LE(0x0808, 6);
    header.writeUInt16LE(8, 8);
    header.writeUInt16LE(this.stamp[0], 10);
    header.writeUInt16LE(this.stamp[1], 12);
    header.writeUInt16LE(nameBytes.length, 26);
    await this.put(Buffer.concat([header, nameBytes]));
    let crc = 0;
    let size = 0;
    let compressed = 0;
    for await (const slice of slices) {
      const data = Buffer.from(slice, 'utf8');
      crc = zlib.crc32(data, crc);
      size += data.length;
      const deflated = zlib.deflateRawSync(data, { level: DEFLATE_LEVEL, finishFlush: zlib.constants.Z_SYNC_FLUSH });
      compressed += deflated.length;
      await this.put(deflated);
    }
    const last = zlib.deflateRawSync(Buffer.alloc(0));
    compressed += last.length;
    await this.put(last);
    if (size > 0xffffffff || this.offset > 0xffffffff) throw new Error('xlsx export exceeds the zip32 size limit');
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);
    await this.put(descriptor);
    this.entries.push({ name: nameBytes, crc: crc >>> 0, compressed, size, start });
  }

  /** The central directory, then the end record; ends the stream. */
  async finish(): Promise<void> {
    const directoryStart = this.offset;
    for (const entry of this.entries) {
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(20, 4);
      record.writeUInt16LE(20, 6);
      record.writeUInt16LE(0x0808, 8);
      record.writeUInt16LE(8, 10);
      record.writeUInt16LE(this.stamp[0], 12);
      record.writeUInt16LE(this.stamp[1], 14);
      record.writeUInt32LE(entry.crc, 16);
      record.writeUInt32LE(entry.compressed, 20);
      record.writeUInt32LE(entry.size, 24);
      record.writeUInt16LE(entry.name.length, 28);
      record.writeUInt32LE(entry.start, 42);
      await this.put(Buffer.concat([record, entry.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - directoryStart, 12);
    end.writeUInt32LE(directoryStart, 16);
    await this.put(end);
    this.out.end();
  }
}

/** Writes the workbook to `out`, waiting for the reader whenever the stream's buffer is full; answers the rows written. */
export async function writeXlsx<T>(out: PassThrough, { sheetName, columns, rows }: Omit<XlsxExport<T>, 'fileName'>): Promise<number> {
  const zip = new ZipWriter(out);
  for (const [name, xml] of packageParts(sheetName ?? 'Sheet1')) await zip.file(name, [xml]);
  const letters = columns.map((_, index) => columnName(index));
  let count = 0;
  async function* sheet(): AsyncGenerator<string> {
    const widths = columns.map((column, i) => `<col min="${i + 1}" max="${i + 1}" width="${column.width ?? 18}" customWidth="1"/>`).join('');
    let slice = `${XML_HEAD}<worksheet xmlns="${MAIN_NS}"><cols>${widths}</cols><sheetData>${rowXml(
      1,
      letters,
      columns.map((c) => neutralise(c.header)),
    )}`;
    for await (const row of rows) {
      if (count + 1 >= XLSX_MAX_ROWS) break;
      count += 1;
      slice += rowXml(
        count + 1,
        letters,
        columns.map((column) => neutralise(column.value(row))),
      );
      if (slice.length >= SLICE) {
        yield slice;
        slice = '';
      }
    }
    yield `${slice}</sheetData></worksheet>`;
  }
  await zip.file('xl/worksheets/sheet1.xml', sheet());
  await zip.finish();
  return count;
}

/** Sends an export as an attachment; errors after the first byte can only cut the download. */
export function sendXlsx<T>(reply: FastifyReply, spec: XlsxExport<T>): FastifyReply {
  const out = new PassThrough();
  const stamp = new Date().toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' }).replace(/[-: ]/g, '').slice(0, 12);
  const name = `${spec.fileName}-${stamp}.xlsx`;
  writeXlsx(out, spec).catch((error: unknown) => {
    reply.log.error({ err: error }, 'export failed');
    out.destroy(error as Error);
  });
  return reply
    .type(XLSX_TYPE)
    .header('content-disposition', `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`)
    .header('cache-control', 'no-store')
    .send(out);
}

/**
 * Reads a table in id order, one batch at a time (keyset paging: each batch is an indexed range,
 * however deep into the table), for streaming exports.
 */
export async function* inBatches<T extends { id: number }>(fetch: (afterId: number, limit: number) => Promise<T[]>, batchSize = 1000): AsyncGenerator<T> {
  let afterId = 0;
  for (;;) {
    const batch = await fetch(afterId, batchSize);
    yield* batch;
    if (batch.length < batchSize) return;
    afterId = batch[batch.length - 1].id;
    await yieldToEventLoop();
  }
}
