/**
 * Every redux-persist persistor a test built (testing/store.ts). redux-persist writes local storage
 * a few timer ticks after a change, so after each test (setup.ts) each one is flushed and paused
 * before local storage is cleared: no test's late write lands in the next test's storage.
 */
import type { Persistor } from 'redux-persist';

const built: Persistor[] = [];

export function trackPersistor(persistor: Persistor): void {
  built.push(persistor);
}

export async function settlePersistors(): Promise<void> {
  for (const persistor of built.splice(0)) {
    await persistor.flush();
    persistor.pause();
  }
}
