/** The file download helper: a file with its server-given name, or the envelope of a refusal. */
import { http, HttpResponse } from 'msw';

import { fetchFile, fileNameOf } from '../../../../src/client/lib/http/download';
import { SIGNED_OUT } from '../../../../src/client/lib/session';
import { api, fail, TOKEN } from '../../testing/handlers';
import { server } from '../../testing/server';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** What fetchFile needs of the store: the signed-in token (and a dispatch for a 401). */
const signedIn = { getState: () => ({ session: { ...SIGNED_OUT, token: TOKEN } }), dispatch: jest.fn() };

describe('file download', () => {
  it('answers the file and the name from content-disposition, sending the bearer token and the body', async () => {
    const seen: Array<{ auth: string | null; body: unknown }> = [];
    server.use(
      http.post(api('/sys/user/export'), async ({ request }) => {
        seen.push({ auth: request.headers.get('authorization'), body: await request.json() });
        return new HttpResponse(new Uint8Array([80, 75, 3, 4]), {
          headers: { 'content-type': XLSX, 'content-disposition': `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent('用户列表-202501010800.xlsx')}` },
        });
      }),
    );
    const progress: number[] = [];
    const fetched = await fetchFile(signedIn, '/sys/user/export', { params: { state: 1 } }, { fallbackName: '用户.xlsx', onProgress: (p) => progress.push(p.loaded) });
    expect(seen).toEqual([{ auth: `Bearer ${TOKEN}`, body: { params: { state: 1 } } }]);
    if (!('file' in fetched)) throw new Error('expected a file');
    expect(fetched.fileName).toBe('用户列表-202501010800.xlsx');
    expect(new Uint8Array(await fetched.file.arrayBuffer())).toEqual(new Uint8Array([80, 75, 3, 4]));
  });

  it('answers the envelope when the server refuses', async () => {
    server.use(http.post(api('/sys/user/export'), () => fail(403, '没有权限执行该操作')));
    const fetched = await fetchFile(signedIn, '/sys/user/export', {}, { fallbackName: 'x.xlsx' });
    expect(fetched).toEqual({ refusal: { code: 403, msg: '没有权限执行该操作', data: null } });
  });

  it('reads the plain filename when there is no UTF-8 one, else falls back', () => {
    expect(fileNameOf('attachment; filename="a.xlsx"', 'b.xlsx')).toBe('a.xlsx');
    expect(fileNameOf(undefined, 'b.xlsx')).toBe('b.xlsx');
  });
});
