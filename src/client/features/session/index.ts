/** The session feature's public face for the app and the other features. */
export { RequireToken } from './guard';
export { sessionApi, useAuthorityQuery, useChangePasswordMutation, useLoginMutation, useLogoutMutation } from './api';
export { loggedIn, loggedOut, menuLoaded, selectMenu, selectNickName, selectToken, sessionExpired } from './slice';
export type { AuthorityMenu, SessionState } from './slice';
