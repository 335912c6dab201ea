/**
 * The session reducer wrapped by redux-persist: token, userName, nickName and menu are kept in
 * local storage (persist-storage.ts) and rehydrated at start, behind the PersistGate of
 * app/providers.tsx.
 */
import { persistReducer, type PersistConfig } from 'redux-persist';

import type { SessionState } from '../../lib/session';
import { PERSISTED_SESSION_KEYS, sessionStorage } from './persist-storage';
import { sessionSlice } from './slice';

const persistConfig: PersistConfig<SessionState> = {
  key: 'session',
  storage: sessionStorage,
  whitelist: PERSISTED_SESSION_KEYS,
};

export const persistedSessionReducer = persistReducer(persistConfig, sessionSlice.reducer);
