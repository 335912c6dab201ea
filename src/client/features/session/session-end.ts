/**
 * The one place the end of a session is handled. Whatever ended it (`session/ended`: 退出登录, a
 * body code 401, login data without a token), once the reducers have emptied the session, the tabs
 * and the sidebar, local storage is cleared (the session, and every user's tabs and sidebar with
 * it) and the RTK Query cache reset, so the next person to sign in on this browser sees nothing of
 * the previous one. A plain Redux middleware: RTK's listener middleware would add 1.6 KB to the
 * login route for this one reaction.
 */
import type { Middleware } from '@reduxjs/toolkit';

import { api } from '../../lib/http/api';
import { sessionEnded } from '../../lib/session';

export const sessionEndMiddleware: Middleware = (store) => (next) => (action) => {
  const result = next(action);
  if (sessionEnded.match(action)) {
    localStorage.clear();
    store.dispatch(api.util.resetApiState());
  }
  return result;
};
