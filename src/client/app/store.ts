/**
 * The Redux store: the `session` slice, the shell's `tabs` and `sidebar` slices and the RTK Query
 * `api`, with one listener middleware on which the session and the shell start their listeners
 * (docs/client.md, Store). Each slice starts from local storage; the listeners keep it there.
 */
import { configureStore, createListenerMiddleware } from '@reduxjs/toolkit';

import { sessionSlice, startSessionListeners } from '../features/session';
import { sidebarSlice, startShellListeners, tabsSlice } from '../features/sys/layout/state';
import { api } from '../lib/http/api';

export function setupStore() {
  const listener = createListenerMiddleware();
  const store = configureStore({
    reducer: {
      session: sessionSlice.reducer,
      tabs: tabsSlice.reducer,
      sidebar: sidebarSlice.reducer,
      [api.reducerPath]: api.reducer,
    },
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().prepend(listener.middleware).concat(api.middleware),
    devTools: process.env.NODE_ENV === 'development',
  });
  startSessionListeners(listener);
  startShellListeners(listener);
  return store;
}

export type AppStore = ReturnType<typeof setupStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
