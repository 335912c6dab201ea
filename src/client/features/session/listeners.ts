/**
 * The session's reactions, on the store's listener middleware (started by app/store.ts):
 * - the end of a session, whatever ended it (`session/ended`): local storage is cleared (the
 *   session, and the user's tabs and sidebar with it) and the RTK Query cache reset, so the next
 *   person to sign in on this browser sees nothing of the previous one;
 * - every change of the session is written to local storage (storage.ts).
 */
import type { ListenerMiddlewareInstance } from '@reduxjs/toolkit';

import { api } from '../../lib/http/api';
import { selectSession, sessionEnded, type SessionState } from '../../lib/session';
import { saveSession } from './storage';

export function startSessionListeners(listener: ListenerMiddlewareInstance): void {
  const startListening = listener.startListening.withTypes<{ session: SessionState }>();
  startListening({
    actionCreator: sessionEnded,
    effect: (_action, { dispatch }) => {
      localStorage.clear();
      dispatch(api.util.resetApiState());
    },
  });
  startListening({
    predicate: (_action, current, previous) => selectSession(current) !== selectSession(previous),
    effect: (_action, listenerApi) => saveSession(selectSession(listenerApi.getState())),
  });
}
