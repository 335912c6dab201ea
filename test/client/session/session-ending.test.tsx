/**
 * The end of a session, whatever its cause: one action (`session/ended`) and one place that handles
 * it (features/session/session-end.ts), clearing local storage and resetting the RTK Query cache. Each way a session ends in this browser is
 * checked to arrive there: the action itself for every reason, and a body code 401 answered to a
 * query, a download and an upload (an expired session, a force logout, a password reset by an
 * administrator and a disabled account all reach the browser that way). Signing out from the
 * account menu and the guard are covered with the real app in sys/layout.test.tsx and
 * session-guard.test.tsx.
 */
import { act, renderHook } from '@testing-library/react';
import { http } from 'msw';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';

import type { AppStore } from '../../../src/client/app/store';
import { sessionApi } from '../../../src/client/features/session';
import { panelApi } from '../../../src/client/features/sys/panel/api';
import { fetchFile } from '../../../src/client/lib/http/download';
import { useUpload } from '../../../src/client/lib/http/upload';
import { sessionEnded, SIGNED_OUT } from '../../../src/client/lib/session';
import { adminMenu, api, fail } from '../testing/handlers';
import { storeSession } from '../testing/render';
import { server } from '../testing/server';
import { rehydratedStore, sessionFields } from '../testing/store';

/** A signed-in store with its menu kept, a tab stored, something unrelated in storage and a cached query. */
async function signedInStore(): Promise<AppStore> {
  storeSession(undefined, adminMenu);
  localStorage.setItem('shell.tabs.admin', JSON.stringify(['sys/user']));
  localStorage.setItem('unrelated', 'x');
  const { store } = await rehydratedStore();
  await store.dispatch(sessionApi.endpoints.authority.initiate());
  expect(Object.keys(store.getState().api.queries)).not.toHaveLength(0);
  return store;
}

function expectForgotten(store: AppStore) {
  expect(sessionFields(store.getState())).toEqual(SIGNED_OUT);
  expect(localStorage.length).toBe(0);
  expect(store.getState().api.queries).toEqual({});
}

describe('session/ended', () => {
  it.each(['logout', 'unauthorized', 'noToken'] as const)('(%s) forgets the session, local storage and the api cache', async (reason) => {
    const store = await signedInStore();
    store.dispatch(sessionEnded({ reason }));
    expectForgotten(store);
  });
});

describe('a body code 401 ends the session', () => {
  it.each([
    ['an expired session', '登录已过期，请重新登录'],
    ['a force logout (在线用户)', '登录已失效，请重新登录'],
    ['a password reset by an administrator', '登录已失效，请重新登录'],
  ])('answered to a query: %s', async (_cause, msg) => {
    server.use(http.post(api('/sys/panel/inquire'), () => fail(401, msg)));
    const store = await signedInStore();
    await store.dispatch(panelApi.endpoints.panel.initiate());
    expectForgotten(store);
  });

  it('answered to a download', async () => {
    server.use(http.post(api('/sys/user/export'), () => fail(401, '登录已失效，请重新登录')));
    const store = await signedInStore();
    const fetched = await fetchFile(store, '/sys/user/export', {}, { fallbackName: '用户列表.xlsx' });
    expect(fetched).toEqual({ refusal: { code: 401, msg: '登录已失效，请重新登录', data: null } });
    expectForgotten(store);
  });

  it('answered to an upload', async () => {
    server.use(http.post(api('/sys/user/import'), () => fail(401, '登录已失效，请重新登录')));
    const store = await signedInStore();
    const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
    const { result } = renderHook(() => useUpload(), { wrapper });
    const file = new File([new Uint8Array([80, 75, 3, 4])], 'users.xlsx');
    await act(async () => {
      expect(await result.current('/sys/user/import', file, { mode: 'preview' })).toEqual({ ok: false });
    });
    expectForgotten(store);
  });
});
