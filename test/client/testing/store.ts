/** The app's store (app/store.ts) for tests, its persistor tracked (persistors.ts). */
import type { Persistor } from 'redux-persist';

import { setupStore } from '../../../src/client/app/store';
import type { SessionState } from '../../../src/client/lib/session';
import { trackPersistor } from './persistors';

/** The store as index.tsx builds it; redux-persist starts rehydrating the session at once. */
export function buildStore() {
  const built = setupStore();
  trackPersistor(built.persistor);
  return built;
}

/** Answers once redux-persist has rehydrated the session from local storage (what PersistGate waits for). */
export function rehydration(persistor: Persistor): Promise<void> {
  return new Promise((resolve) => {
    const done = () => persistor.getState().bootstrapped && (unsubscribe(), resolve());
    const unsubscribe = persistor.subscribe(done);
    done();
  });
}

/** A store whose session is rehydrated from local storage, as the app's screens see it behind PersistGate. */
export async function rehydratedStore() {
  const built = buildStore();
  await rehydration(built.persistor);
  return built;
}

/** The session's own fields, without redux-persist's bookkeeping (`_persist`). */
export function sessionFields({ session }: { session: SessionState & { _persist?: unknown } }): SessionState {
  const { _persist, ...fields } = session;
  return fields;
}
