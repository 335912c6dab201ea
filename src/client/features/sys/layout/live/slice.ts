/**
 * Whether the console is live, for the header's indicator: in the store from the start (a few
 * bytes), while the stream itself is the lazy `live` chunk. `live/statusChanged` is dispatched
 * by the connector as the stream opens, breaks and comes back; `off` once it stops.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import type { LiveStatus } from './connector';

export type LiveState = { status: LiveStatus | 'off' };

const initialState: LiveState = { status: 'off' };

export const liveSlice = createSlice({
  name: 'live',
  initialState,
  reducers: {
    statusChanged: (state, action: PayloadAction<LiveState['status']>) => {
      state.status = action.payload;
    },
  },
});

export const { statusChanged } = liveSlice.actions;
export const selectLiveStatus = (state: { live: LiveState }) => state.live.status;
