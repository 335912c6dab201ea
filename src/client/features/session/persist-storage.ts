/**
 * A redux-persist storage that keeps each persisted session field under its own local storage key
 * holding the bare value, so `localStorage.token` is the token itself (SPEC 3), not a JSON blob
 * under `persist:session`. redux-persist hands over its usual serialised form (a JSON object whose
 * values are JSON too); this adapter unpacks it on write and packs it again on read. Empty values
 * are removed rather than stored.
 */
import type { WebStorage } from 'redux-persist';

export const PERSISTED_SESSION_KEYS = ['token', 'userName', 'nickName'] as const;

export const sessionStorage: WebStorage = {
  getItem: () => {
    const packed: Record<string, string> = {};
    for (const key of PERSISTED_SESSION_KEYS) {
      const value = localStorage.getItem(key);
      if (value) packed[key] = JSON.stringify(value);
    }
    return Promise.resolve(Object.keys(packed).length > 0 ? JSON.stringify(packed) : null);
  },
  setItem: (_storageKey, serialized) => {
    const packed = JSON.parse(serialized) as Record<string, string | undefined>;
    for (const key of PERSISTED_SESSION_KEYS) {
      const raw = packed[key];
      const value: unknown = raw === undefined ? '' : JSON.parse(raw);
      if (typeof value === 'string' && value !== '') localStorage.setItem(key, value);
      else localStorage.removeItem(key);
    }
    return Promise.resolve();
  },
  removeItem: () => {
    for (const key of PERSISTED_SESSION_KEYS) localStorage.removeItem(key);
    return Promise.resolve();
  },
};
