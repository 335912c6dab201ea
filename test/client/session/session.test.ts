import { configureStore } from '@reduxjs/toolkit';
import { persistStore } from 'redux-persist';

import { persistedSessionReducer } from '../../../src/client/features/session/reducer';
import { sessionStorage } from '../../../src/client/features/session/persist-storage';
import { loggedIn, loggedOut, menuLoaded, sessionExpired, sessionSlice } from '../../../src/client/features/session/slice';
import { adminMenu } from '../testing/handlers';

const signedIn = { token: 'abc', userName: 'admin', nickName: '管理员', menu: adminMenu };

describe('session reducer', () => {
  const reduce = sessionSlice.reducer;

  it('stores the session on session/loggedIn', () => {
    const state = reduce(undefined, loggedIn(signedIn));
    expect(loggedIn(signedIn).type).toBe('session/loggedIn');
    expect(state).toEqual(signedIn);
  });

  it('replaces only the menu on session/menuLoaded', () => {
    const state = reduce({ ...signedIn, menu: [] }, menuLoaded(adminMenu.slice(0, 2)));
    expect(state).toEqual({ ...signedIn, menu: adminMenu.slice(0, 2) });
  });

  it.each([
    ['session/expired', sessionExpired()],
    ['session/loggedOut', loggedOut()],
  ])('forgets everything on %s', (type, action) => {
    expect(action.type).toBe(type);
    expect(reduce(signedIn, action)).toEqual({ token: '', userName: '', nickName: '', menu: [] });
  });
});

describe('session persistence', () => {
  /** A store rehydrated from local storage, as the app has it behind PersistGate. */
  async function setup() {
    const store = configureStore({
      reducer: { session: persistedSessionReducer },
      middleware: (getDefault) => getDefault({ serializableCheck: false }),
    });
    const persistor = persistStore(store);
    await new Promise<void>((resolve) => {
      if (persistor.getState().bootstrapped) resolve();
      else persistor.subscribe(() => persistor.getState().bootstrapped && resolve());
    });
    return { store, persistor };
  }

  it('keeps the bare token, userName and nickName under their own keys, never the menu', async () => {
    const { store, persistor } = await setup();
    store.dispatch(loggedIn(signedIn));
    await persistor.flush();
    expect(localStorage.getItem('token')).toBe('abc');
    expect(localStorage.getItem('userName')).toBe('admin');
    expect(localStorage.getItem('nickName')).toBe('管理员');
    expect(Object.keys(localStorage).sort()).toEqual(['nickName', 'token', 'userName']);
  });

  it('restores the stored fields on start, with an empty menu', async () => {
    localStorage.setItem('token', 'stored-token');
    localStorage.setItem('userName', 'alice');
    localStorage.setItem('nickName', '爱丽丝');
    const { store } = await setup();
    const { token, userName, nickName, menu } = store.getState().session;
    expect({ token, userName, nickName, menu }).toEqual({ token: 'stored-token', userName: 'alice', nickName: '爱丽丝', menu: [] });
  });

  it('removes the stored fields when the session is forgotten', async () => {
    const { store, persistor } = await setup();
    store.dispatch(loggedIn(signedIn));
    await persistor.flush();
    store.dispatch(loggedOut());
    await persistor.flush();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('nickName')).toBeNull();
  });

  it('answers nothing when nothing is stored', async () => {
    await expect(sessionStorage.getItem('persist:session')).resolves.toBeNull();
  });
});
