/**
 * The signed-in session's reducer; its shape, the action that ends it and the selectors are
 * lib/session.ts, which every layer may read. It starts signed out; redux-persist rehydrates it from
 * local storage (reducer.ts). The end of a session keeps the server's reason, if any, for the
 * sign-in page.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import { SIGNED_OUT, sessionEnded, type AuthorityMenu, type SessionState } from '../../lib/session';

export const sessionSlice = createSlice({
  name: 'session',
  initialState: SIGNED_OUT,
  reducers: {
    loggedIn: (_state, action: PayloadAction<SessionState>) => action.payload,
    /** The authority answer: the menu as the server grants it now. */
    menuLoaded: (state, action: PayloadAction<AuthorityMenu[]>) => {
      state.menu = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionEnded, (_state, { payload }) => (payload.notice ? { ...SIGNED_OUT, notice: payload.notice } : SIGNED_OUT));
  },
});

export const { loggedIn, menuLoaded } = sessionSlice.actions;
