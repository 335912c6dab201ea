/**
 * The signed-in session's reducer; its shape, the action that ends it and the selectors are
 * lib/session.ts, which every layer may read. It starts signed out; redux-persist rehydrates it from
 * local storage (reducer.ts).
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
    builder.addCase(sessionEnded, () => SIGNED_OUT);
  },
});

export const { loggedIn, menuLoaded } = sessionSlice.actions;
