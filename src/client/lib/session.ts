/**
 * The signed-in session as every layer may know it: the shape of its state, the one action that
 * ends it, and the selectors. It sits this low because the HTTP layer reads the token and ends the
 * session on a body code 401, and shared components read the menu. The reducer, its persistence,
 * the middleware that handles the end, the guard and sign-out are features/session
 * (docs/client.md, Session).
 */
import { createAction } from '@reduxjs/toolkit';

import type { DataOf, SessionEndReason as EndedBy } from '../../contract';

export type AuthorityMenu = DataOf<'GET /sys/menu/authority'>[number];

export interface SessionState {
  token: string;
  userName: string;
  nickName: string;
  /** The authorised menu: the routes, the sidebar and each screen's grants. */
  menu: AuthorityMenu[];
  /** Why the server ended the last session, shown on the sign-in page; never persisted. */
  notice?: EndNotice;
}

/** What the server said of a session it ended (a 401's `reason`, the live stream's `session-ended`). */
export interface EndNotice {
  reason: EndedBy;
  msg: string;
}

export const SIGNED_OUT: SessionState = { token: '', userName: '', nickName: '', menu: [] };

/**
 * Why a session ended:
 * - `logout`: the user signed out;
 * - `unauthorized`: a call answered body code 401, which is how an expired session, a force logout
 *   (在线用户), a password reset by an administrator and a disabled account reach this browser;
 * - `noToken`: a guarded route was opened without a token while other login data was stored;
 * - `ended`: the live stream announced the session's end (`session-ended`).
 * `notice` carries the server's reason when it gave one (force logout, expiry, ...).
 */
export type SessionEndReason = 'logout' | 'unauthorized' | 'noToken' | 'ended';

/** The one action that ends a session, whatever the cause. */
export const sessionEnded = createAction<{ reason: SessionEndReason; notice?: EndNotice }>('session/ended');

/** Any store state holding the session (the app's root state does). */
export interface SessionRoot {
  session: SessionState;
}

export const selectSession = (state: SessionRoot) => state.session;
export const selectToken = (state: SessionRoot) => state.session.token;
export const selectUserName = (state: SessionRoot) => state.session.userName;
export const selectNickName = (state: SessionRoot) => state.session.nickName;
export const selectMenu = (state: SessionRoot) => state.session.menu;

/** The authorised menu entry showing `view` (its element), if the user has one. */
export const selectMenuEntry = (state: SessionRoot, view: string) => state.session.menu.find((entry) => entry.element === view);
