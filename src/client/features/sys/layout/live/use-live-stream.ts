/**
 * Runs the live stream while the shell is mounted: the connector (tickets, reconnects, resume)
 * feeds the coalescer, whose batches patch and refresh the cache; the session's end is acted on at
 * once: `session/ended` empties the token, so the guard shows the sign-in page with the reason.
 */
import { useEffect } from 'react';
import { useDispatch, useStore } from 'react-redux';

import { sessionEnded } from '../../../../lib/session';
import { useEventTicketMutation } from './api';
import { applyBatch, type ApiState, type LiveDispatch } from './apply';
import { Coalescer } from './coalesce';
import { LiveConnector } from './connector';
import { statusChanged } from './slice';

export function useLiveStream(): void {
  const dispatch = useDispatch<LiveDispatch>();
  const store = useStore<ApiState>();
  const [fetchTicket] = useEventTicketMutation();

  useEffect(() => {
    // Every browser the console supports has EventSource; without it the screens still read on
    // every visit, as before.
    if (typeof EventSource === 'undefined') return;
    const coalescer = new Coalescer((batch) => applyBatch(dispatch, () => store.getState(), batch));
    const connector = new LiveConnector({
      ticket: async () => {
        const result = await fetchTicket();
        return 'data' in result && result.data ? result.data.data.ticket : null;
      },
      open: (url) => new EventSource(url),
      onStatus: (status) => dispatch(statusChanged(status)),
      onEvent: (event) => {
        if (event.kind !== 'session-ended') return coalescer.push(event);
        coalescer.cancel();
        dispatch(sessionEnded({ reason: 'ended', notice: { reason: event.reason, msg: event.msg } }));
      },
    });
    connector.start();
    return () => {
      connector.stop();
      coalescer.cancel();
      dispatch(statusChanged('off'));
    };
  }, [dispatch, store, fetchTicket]);
}
