/**
 * The session module, the one feature other features may import (through this file): the
 * persisted reducer and the middleware that handles a session's end for the store, the guard,
 * sign-in's `loggedIn`, sign-out, and the authority query that keeps the menu current. The
 * session's shape, its ending action and the selectors are lib/session.ts, since shared code reads
 * them too.
 */
export { sessionApi, useAuthorityQuery, useLazyAuthorityQuery } from './api';
export { RequireToken } from './guard';
export { redirectAfterLogin } from './redirect';
export { persistedSessionReducer } from './reducer';
export { sessionEndMiddleware } from './session-end';
export { useSignOut } from './sign-out';
export { loggedIn, menuLoaded, sessionSlice } from './slice';
