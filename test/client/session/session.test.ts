/** The session slice and its local storage (features/session/slice.ts, reducer.ts, persist-storage.ts). */
import { loggedIn, menuLoaded, sessionSlice } from '../../../src/client/features/session';
import { sessionEnded, SIGNED_OUT } from '../../../src/client/lib/session';
import { adminMenu } from '../testing/handlers';
import { buildStore, rehydratedStore, rehydration, sessionFields } from '../testing/store';

const signedIn = { token: 'abc', userName: 'admin', nickName: '管理员', menu: adminMenu };

describe('session reducer', () => {
  const reduce = sessionSlice.reducer;

  it('stores the session on session/loggedIn', () => {
    const state = reduce(SIGNED_OUT, loggedIn(signedIn));
    expect(loggedIn(signedIn).type).toBe('session/loggedIn');
    expect(state).toEqual(signedIn);
  });

  it('replaces only the menu on session/menuLoaded', () => {
    const state = reduce({ ...signedIn, menu: [] }, menuLoaded(adminMenu.slice(0, 2)));
    expect(menuLoaded([]).type).toBe('session/menuLoaded');
    expect(state).toEqual({ ...signedIn, menu: adminMenu.slice(0, 2) });
  });

  it.each(['logout', 'unauthorized', 'noToken'] as const)('forgets everything on session/ended (%s)', (reason) => {
    const action = sessionEnded({ reason });
    expect(action).toEqual({ type: 'session/ended', payload: { reason } });
    expect(reduce(signedIn, action)).toEqual({ token: '', userName: '', nickName: '', menu: [] });
  });
});

describe('session persistence', () => {
  it('keeps the bare token, userName and nickName under their own keys, and the menu as JSON', async () => {
    const { store, persistor } = await rehydratedStore();
    store.dispatch(loggedIn(signedIn));
    await persistor.flush();
    expect(localStorage.getItem('token')).toBe('abc');
    expect(localStorage.getItem('userName')).toBe('admin');
    expect(localStorage.getItem('nickName')).toBe('管理员');
    expect(JSON.parse(localStorage.getItem('menu')!)).toEqual(adminMenu);
    expect(Object.keys(localStorage).sort()).toEqual(['menu', 'nickName', 'token', 'userName']);
  });

  it('keeps the menu the authority answered last', async () => {
    const { store, persistor } = await rehydratedStore();
    store.dispatch(loggedIn(signedIn));
    store.dispatch(menuLoaded(adminMenu.slice(0, 3)));
    await persistor.flush();
    expect(JSON.parse(localStorage.getItem('menu')!)).toEqual(adminMenu.slice(0, 3));
  });

  it('restores the stored fields on start, the menu with them', async () => {
    localStorage.setItem('token', 'stored-token');
    localStorage.setItem('userName', 'alice');
    localStorage.setItem('nickName', '爱丽丝');
    localStorage.setItem('menu', JSON.stringify(adminMenu));
    const { token, userName, nickName, menu } = (await rehydratedStore()).store.getState().session;
    expect({ token, userName, nickName, menu }).toEqual({ token: 'stored-token', userName: 'alice', nickName: '爱丽丝', menu: adminMenu });
  });

  it('starts without a menu when the stored one is damaged', async () => {
    localStorage.setItem('token', 'stored-token');
    localStorage.setItem('menu', '{not json');
    expect((await rehydratedStore()).store.getState().session.menu).toEqual([]);
  });

  it('removes the stored fields when the session is forgotten', async () => {
    const { store, persistor } = await rehydratedStore();
    store.dispatch(loggedIn(signedIn));
    await persistor.flush();
    store.dispatch(sessionEnded({ reason: 'logout' }));
    await persistor.flush();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('nickName')).toBeNull();
    expect(localStorage.getItem('menu')).toBeNull();
  });

  it('starts signed out when nothing is stored', async () => {
    expect(sessionFields((await rehydratedStore()).store.getState())).toEqual(SIGNED_OUT);
  });
});

describe('rehydration through redux-persist', () => {
  const stored = { token: 'stored-token', userName: 'alice', nickName: '爱丽丝', menu: adminMenu };

  it('starts signed out and takes the stored session from redux-persist’s rehydration', async () => {
    localStorage.setItem('token', stored.token);
    localStorage.setItem('userName', stored.userName);
    localStorage.setItem('nickName', stored.nickName);
    localStorage.setItem('menu', JSON.stringify(stored.menu));
    const { store, persistor } = buildStore();
    expect(sessionFields(store.getState())).toEqual(SIGNED_OUT);
    expect(persistor.getState().bootstrapped).toBe(false);

    await rehydration(persistor);
    expect(sessionFields(store.getState())).toEqual(stored);
    expect(store.getState().session._persist).toEqual({ version: -1, rehydrated: true });
  });

  it('keeps the bare token after sign-in, and a reload rehydrates what sign-in stored', async () => {
    const first = await rehydratedStore();
    first.store.dispatch(loggedIn(stored));
    await first.persistor.flush();
    expect(localStorage.getItem('token')).toBe('stored-token');
    expect(localStorage.getItem('persist:session')).toBeNull();

    const reloaded = await rehydratedStore();
    expect(sessionFields(reloaded.store.getState())).toEqual(stored);
  });
});
