/** The streamed .xlsx writer: headers, values, neutralised formulas, batches read in id order. */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { inBatches, neutralise, writeXlsx } from '../../src/server/lib/xlsx';

async function collect(out: PassThrough): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of out) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('xlsx export', () => {
  it('neutralises text a spreadsheet would read as a formula, and nothing else', () => {
    expect(neutralise('=1+1')).toBe("'=1+1");
    expect(neutralise('+8613800000000')).toBe("'+8613800000000");
    expect(neutralise('-2')).toBe("'-2");
    expect(neutralise('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(neutralise('\t=cmd')).toBe("'\t=cmd");
    expect(neutralise('主楼 0808')).toBe('主楼 0808');
    expect(neutralise(-2)).toBe(-2);
    expect(neutralise(Number.POSITIVE_INFINITY)).toBeNull();
    expect(neutralise(undefined)).toBeNull();
  });

  it('writes a header row and one row per record', async () => {
    const out = new PassThrough();
    // eslint-disable-next-line @typescript-eslint/require-await -- an async source, as the database's batches are
    const rows = (async function* () {
      yield { name: '前台', note: '=HYPERLINK("http://x")', n: 3 };
      yield { name: '客房', note: '', n: 0 };
    })();
    const [count, bytes] = await Promise.all([
      writeXlsx(out, {
        sheetName: '用户',
        columns: [
          { header: '名称', value: (r) => r.name },
          { header: '备注', value: (r) => r.note },
          { header: '数量', value: (r) => r.n },
        ],
        rows,
      }),
      collect(out),
    ]);
    expect(count).toBe(2);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('用户')!;
    expect(sheet.getRow(1).values).toEqual([undefined, '名称', '备注', '数量']);
    expect(sheet.getRow(2).values).toEqual([undefined, '前台', '\'=HYPERLINK("http://x")', 3]);
    expect(sheet.getRow(3).getCell(1).value).toBe('客房');
    expect(sheet.rowCount).toBe(3);
  });

  it('streams: the file starts going out while rows are still being read', async () => {
    const out = new PassThrough();
    let sent = 0;
    out.on('data', (chunk: Buffer) => (sent += chunk.length));
    let sentBeforeLastRow = 0;
    // eslint-disable-next-line @typescript-eslint/require-await -- an async source, as the database's batches are
    const rows = (async function* () {
      for (let i = 0; i < 20_000; i += 1) yield { text: `第 ${i} 行，一些重复的文字`, n: i };
      sentBeforeLastRow = sent;
    })();
    await writeXlsx(out, {
      columns: [
        { header: '文字', value: (r) => r.text },
        { header: '序号', value: (r) => r.n },
      ],
      rows,
    });
    // More than the fixed parts: sheet data had gone out before the last row was read.
    expect(sentBeforeLastRow).toBeGreaterThan(50_000);
    expect(sent).toBeGreaterThan(sentBeforeLastRow);
  });

  it('writes text XML cannot hold without breaking the file, and a sheet name Excel accepts', async () => {
    const out = new PassThrough();
    // eslint-disable-next-line @typescript-eslint/require-await -- an async source, as the database's batches are
    const rows = (async function* () {
      yield { text: 'a\u0001b <x> & "q"', pad: '  留白 ' };
    })();
    const [, bytes] = await Promise.all([
      writeXlsx(out, {
        sheetName: '设备/列表[1]',
        columns: [
          { header: '文字', value: (r) => r.text },
          { header: '留白', value: (r) => r.pad },
        ],
        rows,
      }),
      collect(out),
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.name).toBe('设备 列表 1 ');
    expect(sheet.getRow(2).values).toEqual([undefined, 'ab <x> & "q"', '  留白 ']);
  });

  it('reads batches after the last id until a short batch', async () => {
    const all = Array.from({ length: 25 }, (_, i) => ({ id: i + 1 }));
    const asked: number[] = [];
    const seen: number[] = [];
    for await (const row of inBatches((afterId, limit) => (asked.push(afterId), Promise.resolve(all.filter((r) => r.id > afterId).slice(0, limit))), 10)) seen.push(row.id);
    expect(seen).toEqual(all.map((r) => r.id));
    expect(asked).toEqual([0, 10, 20]);
  });
});
