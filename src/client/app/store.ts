/**
 * The Redux store: the `session` slice (persisted by redux-persist), the shell's `tabs`,
 * `sidebar` and `live` slices and the RTK Query `api`, with two small middlewares: the session's end
 * (features/session/session-end.ts) and the shell's per-user storage (docs/client.md, Store).
 */
import { configureStore } from '@reduxjs/toolkit';
import { FLUSH, PAUSE, PERSIST, PURGE, REGISTER, REHYDRATE, persistStore } from 'redux-persist';

import { persistedSessionReducer, sessionEndMiddleware } from '../features/session';
import { liveSlice } from '../features/sys/layout/live/slice';
import { shellStorageMiddleware, sidebarSlice, tabsSlice } from '../features/sys/layout/state';
import { api } from '../lib/http/api';

export function setupStore() {
  const store = configureStore({
    reducer: {
      session: persistedSessionReducer,
      tabs: tabsSlice.reducer,
      sidebar: sidebarSlice.reducer,
      live: liveSlice.reducer,
      [api.reducerPath]: api.reducer,
    },
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        // redux-persist's own actions carry functions (register, rehydrate callbacks).
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      })
        .prepend(sessionEndMiddleware)
        .concat(api.middleware, ...shellStorageMiddleware),
    devTools: process.env.NODE_ENV === 'development',
  });
  const persistor = persistStore(store);
  return { store, persistor };
}

export type AppStore = ReturnType<typeof setupStore>['store'];
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
