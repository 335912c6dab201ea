import { http, HttpResponse } from 'msw';
import { act, waitFor } from '@testing-library/react';

import { panelApi } from '../../../../src/client/features/sys/panel/api';
import { sessionApi } from '../../../../src/client/features/session';
import { verifyApi } from '../../../../src/client/features/sys/verify/api';
import { api, fail, ok, panelData, TOKEN } from '../../testing/handlers';
import { renderProviders, screen } from '../../testing/render';
import { server } from '../../testing/server';

function recordAuthorization(path: string, answer = () => ok(panelData)) {
  const seen: (string | null)[] = [];
  server.use(
    http.post(api(path), ({ request }) => {
      seen.push(request.headers.get('authorization'));
      return answer();
    }),
  );
  return seen;
}

describe('base query', () => {
  it('sends the stored token as a bearer token', async () => {
    const seen = recordAuthorization('/sys/panel/inquire');
    const { store } = await renderProviders({ signedIn: true });
    const result = await act(() => store.dispatch(panelApi.endpoints.panel.initiate()));
    expect(seen).toEqual([`Bearer ${TOKEN}`]);
    expect(result.data).toEqual(panelData);
  });

  it('sends no bearer token to the login, even when one is stored', async () => {
    const seen = recordAuthorization('/sys/user/verify', () => fail(400, '密码错误'));
    const { store } = await renderProviders({ signedIn: true });
    await act(() => store.dispatch(verifyApi.endpoints.login.initiate({ userName: 'admin', password: 'x' })));
    expect(seen).toEqual([null]);
  });

  it('forgets the session on a body code 401: store, local storage and api cache', async () => {
    server.use(http.post(api('/sys/panel/inquire'), () => fail(401, '登录已过期，请重新登录')));
    const { store } = await renderProviders({ signedIn: true });
    localStorage.setItem('unrelated', 'x');
    await act(() => store.dispatch(sessionApi.endpoints.authority.initiate()));
    expect(Object.keys(store.getState().api.queries)).not.toHaveLength(0);

    await act(() => store.dispatch(panelApi.endpoints.panel.initiate()));

    expect(await screen.findByText('登录已过期，请重新登录')).toBeInTheDocument();
    expect(store.getState().session.token).toBe('');
    expect(localStorage.length).toBe(0);
    expect(store.getState().api.queries).toEqual({});
  });

  it('shows the server msg of any other failure as the error toast', async () => {
    server.use(http.post(api('/sys/panel/inquire'), () => fail(403, '没有访问该功能的权限')));
    const { store } = await renderProviders({ signedIn: true });
    const result = await act(() => store.dispatch(panelApi.endpoints.panel.initiate()));
    expect(result.error).toEqual({ status: 403, data: { code: 403, msg: '没有访问该功能的权限', data: null } });
    expect(await screen.findByText('没有访问该功能的权限')).toBeInTheDocument();
    expect(store.getState().session.token).toBe(TOKEN);
  });

  it('passes a network failure to the caller unchanged, with a generic toast', async () => {
    server.use(http.post(api('/sys/panel/inquire'), () => HttpResponse.error()));
    const { store } = await renderProviders({ signedIn: true });
    const result = await act(() => store.dispatch(panelApi.endpoints.panel.initiate()));
    expect(result.error).toMatchObject({ status: 'FETCH_ERROR', error: 'Network Error' });
    expect(await screen.findByText('网络异常，请检查网络连接后重试')).toBeInTheDocument();
    expect(store.getState().session.token).toBe(TOKEN);
  });

  it('passes an HTTP error to the caller with its status and body', async () => {
    server.use(http.post(api('/sys/panel/inquire'), () => new HttpResponse('Bad Gateway', { status: 502 })));
    const { store } = await renderProviders({ signedIn: true });
    const result = await act(() => store.dispatch(panelApi.endpoints.panel.initiate()));
    expect(result.error).toMatchObject({ status: 502, data: 'Bad Gateway' });
    await waitFor(() => expect(screen.getByText('服务器繁忙（HTTP 502），请稍后重试')).toBeInTheDocument());
  });
});
