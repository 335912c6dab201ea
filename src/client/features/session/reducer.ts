/** The session reducer wrapped by redux-persist, persisting only what SPEC 3 stores. */
import { persistReducer, type PersistConfig } from 'redux-persist';

import { PERSISTED_SESSION_KEYS, sessionStorage } from './persist-storage';
import { sessionSlice, type SessionState } from './slice';

const persistConfig: PersistConfig<SessionState> = {
  key: 'session',
  storage: sessionStorage,
  whitelist: [...PERSISTED_SESSION_KEYS],
};

export const persistedSessionReducer = persistReducer(persistConfig, sessionSlice.reducer);
