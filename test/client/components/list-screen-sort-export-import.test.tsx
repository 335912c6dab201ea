/**
 * The list block's sorting, export and import, on the user screen: what is sent (sort keys, the
 * current filters and sort for an export, the file and its options for an import) and what the
 * user sees (export progress and refusals, import preview errors, the one-time passwords).
 */
import { act, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import SysUserScreen from '../../../src/client/features/sys/user';
import { menuLoaded } from '../../../src/client/features/session';
import { XLSX_MIME } from '../../../src/contract/constants';
import type { DataOf } from '../../../src/contract';
import { api, fail, ok } from '../testing/handlers';
import { userHandlers } from '../testing/handlers/user';
import { sysMenu } from '../testing/handlers/sys-common';
import { button, filterField } from '../testing/list-screen';
import { findDialog, renderScreen, screen } from '../testing/render-screen';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

jest.setTimeout(90_000);

type Summary = DataOf<'/sys/user/import'>;
const user = userEvent.setup({ delay: null });
let log: RequestLog;
let saved: string[];

beforeEach(() => {
  log = createRequestLog();
  server.use(...userHandlers(log));
  saved = [];
  // jsdom has no object URLs and cannot save files: record what would be saved.
  Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:export'), revokeObjectURL: jest.fn() });
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
});

afterEach(() => jest.restoreAllMocks());

async function openUsers() {
  const view = renderScreen(SysUserScreen);
  await screen.findByText('alice', { selector: 'td, td *' });
  return view;
}

const header = (title: string) => screen.getByText(title, { selector: 'th .ant-table-column-title, th .ant-table-column-title *' });
const toolbarButton = (label: string) => screen.getByRole('button', { name: button(label) });

const summary = (overrides: Partial<Summary>): Summary => ({ applied: 0, total: 0, created: 0, updated: 0, failed: 0, errors: [], credentials: [], ...overrides });

describe('list sorting', () => {
  it('asks the server for the column’s sort key, then the reverse, then the default order, from page 1', async () => {
    await openUsers();
    await user.click(screen.getByTitle('2'));
    await waitFor(() => expect(log.last('/sys/user/inquire')).toMatchObject({ current: 2 }));

    await user.click(header('用户名'));
    await waitFor(() => expect(log.last('/sys/user/inquire')).toEqual({ size: 20, current: 1, params: {}, sort: { field: 'userName', order: 'ascend' } }));
    await user.click(header('用户名'));
    await waitFor(() => expect(log.last('/sys/user/inquire')).toEqual({ size: 20, current: 1, params: {}, sort: { field: 'userName', order: 'descend' } }));
    await user.click(header('创建时间'));
    await waitFor(() => expect(log.last('/sys/user/inquire')).toEqual({ size: 20, current: 1, params: {}, sort: { field: 'createdAt', order: 'ascend' } }));
    await user.click(header('创建时间'));
    await user.click(header('创建时间'));
    await waitFor(() => expect(log.last('/sys/user/inquire')).toEqual({ size: 20, current: 1, params: {} }));
  });

  it('offers sorting only on the columns the screen declares', async () => {
    await openUsers();
    expect(header('用户名').closest('th')).toHaveClass('ant-table-column-has-sorters');
    expect(screen.getByText('操作', { selector: 'th' })).not.toHaveClass('ant-table-column-has-sorters');
  });
});

describe('list export', () => {
  it('exports the list as filtered and sorted, showing progress, and saves the file under the server’s name', async () => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.post(api('/sys/user/export'), async ({ request }) => {
        await log.record(request);
        await answered;
        return new HttpResponse(new Uint8Array(4096), {
          headers: { 'content-type': XLSX_MIME, 'content-disposition': `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent('用户列表-202501010800.xlsx')}` },
        });
      }),
    );
    await openUsers();
    await user.type(filterField('用户名'), 'ali');
    await user.click(toolbarButton('查询'));
    await user.click(header('昵称'));
    await waitFor(() => expect(log.last('/sys/user/inquire')).toMatchObject({ sort: { field: 'nickName', order: 'ascend' } }));

    await user.click(toolbarButton('导出'));
    expect(await screen.findByText(/导出中/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: button('取消') })).toBeInTheDocument();
    release();
    await waitFor(() => expect(saved).toEqual(['用户列表-202501010800.xlsx']));
    expect(log.last('/sys/user/export')).toEqual({ params: { userName: 'ali' }, sort: { field: 'nickName', order: 'ascend' } });
    expect(await screen.findByRole('button', { name: button('导出') })).toBeEnabled();
  });

  it('shows the server msg of a refused export and saves nothing', async () => {
    server.use(http.post(api('/sys/user/export'), () => fail(403, '没有权限执行该操作')));
    await openUsers();
    await user.click(toolbarButton('导出'));
    expect(await screen.findByText('没有权限执行该操作')).toBeInTheDocument();
    expect(saved).toEqual([]);
  });

  it('ends the session when the export answers 401', async () => {
    server.use(http.post(api('/sys/user/export'), () => fail(401, '登录已失效，请重新登录')));
    const { store } = await openUsers();
    await user.click(toolbarButton('导出'));
    await waitFor(() => expect(store.getState().session.token).toBe(''));
  });

  it('hides export and import when the role does not hold them', async () => {
    const { store } = await openUsers();
    expect(toolbarButton('导出')).toBeInTheDocument();
    expect(toolbarButton('导入')).toBeInTheDocument();
    act(() => {
      store.dispatch(menuLoaded(sysMenu.map((menu) => (menu.element === 'sys/user' ? { ...menu, granted: ['api_inquire', 'api_creation', 'api_edit'] } : menu))));
    });
    await waitFor(() => expect(screen.queryByRole('button', { name: button('导出') })).toBeNull());
    expect(screen.queryByRole('button', { name: button('导入') })).toBeNull();
  });
});

describe('list import', () => {
  // jsdom's File does not survive msw's conversion of the XHR body, so only the options and the type are checked here (the e2e test sends real files).
  const sent: Array<{ mode: string | null; updateExisting: string | null; type: string | null }> = [];
  const xlsx = (name: string) => new File([new Uint8Array([80, 75, 3, 4])], name, { type: XLSX_MIME });

  beforeEach(() => {
    sent.length = 0;
  });

  function answerImports(answer: (mode: string) => Response) {
    server.use(
      http.post(api('/sys/user/import'), ({ request }) => {
        const url = new URL(request.url);
        sent.push({ mode: url.searchParams.get('mode'), updateExisting: url.searchParams.get('updateExisting'), type: request.headers.get('content-type') });
        return answer(url.searchParams.get('mode')!);
      }),
    );
  }

  it('previews a file, shows each bad row, and does not offer to import it', async () => {
    answerImports(() =>
      ok(
        summary({ total: 2, created: 1, failed: 1, errors: [{ row: 3, field: '昵称', reason: '昵称长度不能超过 32 个字符' }] }),
        '预览完成：可新增 1 条，可更新 0 条，有错误 1 行',
      ),
    );
    await openUsers();
    await user.click(toolbarButton('导入'));
    const dialog = await findDialog('导入用户');
    await user.upload(dialog.querySelector('input[type="file"]') as HTMLInputElement, xlsx('users.xlsx'));

    expect(await within(dialog).findByText('昵称长度不能超过 32 个字符')).toBeInTheDocument();
    expect(within(dialog).getByText(/1 行有错误/)).toBeInTheDocument();
    const errorRow = within(dialog).getByText('昵称长度不能超过 32 个字符').closest('tr') as HTMLElement;
    expect(within(errorRow).getByText('3')).toBeInTheDocument();
    expect(within(errorRow).getByText('昵称')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: button('导入') })).toBeDisabled();
    expect(sent).toEqual([{ mode: 'preview', updateExisting: '0', type: XLSX_MIME }]);
  });

  it('re-previews with “update existing”, applies, shows the one-time passwords and reloads the list', async () => {
    answerImports((mode) =>
      mode === 'preview'
        ? ok(summary({ total: 2, created: 1, updated: 1 }), '预览完成')
        : ok(summary({ applied: 1, total: 2, created: 1, updated: 1, credentials: [{ row: 2, key: 'carol', secret: 'Gen3rated-Pass' }] }), '导入成功：新增 1 条，更新 1 条'),
    );
    await openUsers();
    const listCalls = log.sent('/sys/user/inquire').length;
    await user.click(toolbarButton('导入'));
    const dialog = await findDialog('导入用户');
    await user.upload(dialog.querySelector('input[type="file"]') as HTMLInputElement, xlsx('users.xlsx'));
    expect(await within(dialog).findByText(/没有错误，可以导入/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('switch', { name: '更新已有用户' }));
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ mode: 'preview', updateExisting: '1' }));

    await user.click(within(dialog).getByRole('button', { name: button('导入') }));
    expect(await within(dialog).findByText('Gen3rated-Pass')).toBeInTheDocument();
    expect(within(dialog).getByText(/初始密码只显示这一次/)).toBeInTheDocument();
    expect(sent.at(-1)).toMatchObject({ mode: 'apply', updateExisting: '1' });
    await waitFor(() => expect(log.sent('/sys/user/inquire').length).toBeGreaterThan(listCalls));
  });

  it('shows the msg of a refused apply and previews again to show what is wrong now', async () => {
    let previews = 0;
    answerImports((mode) => {
      if (mode === 'apply') return HttpResponse.json({ code: 400, msg: '导入未执行：1 行有错误，未写入任何数据（第 2 行 用户名：用户名 carol 已存在）', data: null });
      previews += 1;
      return previews === 1 ? ok(summary({ total: 1, created: 1 })) : ok(summary({ total: 1, failed: 1, errors: [{ row: 2, field: '用户名', reason: '用户名 carol 已存在' }] }));
    });
    await openUsers();
    await user.click(toolbarButton('导入'));
    const dialog = await findDialog('导入用户');
    await user.upload(dialog.querySelector('input[type="file"]') as HTMLInputElement, xlsx('users.xlsx'));
    await within(dialog).findByText(/没有错误，可以导入/);
    await user.click(within(dialog).getByRole('button', { name: button('导入') }));
    expect(await screen.findByText(/导入未执行/)).toBeInTheDocument();
    expect(await within(dialog).findByText('用户名 carol 已存在')).toBeInTheDocument();
  });

  it('downloads the template from the dialog', async () => {
    server.use(http.post(api('/sys/user/import/template'), () => new HttpResponse(new Uint8Array(8), { headers: { 'content-type': XLSX_MIME } })));
    await openUsers();
    await user.click(toolbarButton('导入'));
    const dialog = await findDialog('导入用户');
    await user.click(within(dialog).getByRole('button', { name: button('下载模板') }));
    await waitFor(() => expect(saved).toEqual(['用户导入模板.xlsx']));
  });
});
