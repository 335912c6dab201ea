/**
 * The signed-in session (DESIGN 7). token, userName and nickName survive reloads through
 * redux-persist (see persist-storage.ts); the menu is fetched afresh at every sign-in and load.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import type { DataOf } from '../../../contract';
import { sessionExpired } from '../../lib/http/api';

export type AuthorityMenu = DataOf<'GET /sys/menu/authority'>[number];

export interface SessionState {
  token: string;
  userName: string;
  nickName: string;
  menu: AuthorityMenu[];
}

export const signedOut: SessionState = { token: '', userName: '', nickName: '', menu: [] };

export const sessionSlice = createSlice({
  name: 'session',
  initialState: signedOut,
  reducers: {
    loggedIn: (_state, action: PayloadAction<SessionState>) => action.payload,
    menuLoaded: (state, action: PayloadAction<AuthorityMenu[]>) => {
      state.menu = action.payload;
    },
    loggedOut: () => signedOut,
  },
  extraReducers: (builder) => {
    builder.addCase(sessionExpired, () => signedOut);
  },
});

export const { loggedIn, menuLoaded, loggedOut } = sessionSlice.actions;
export { sessionExpired };

interface WithSession {
  session: SessionState;
}

export const selectToken = (state: WithSession) => state.session.token;
export const selectNickName = (state: WithSession) => state.session.nickName;
export const selectMenu = (state: WithSession) => state.session.menu;
