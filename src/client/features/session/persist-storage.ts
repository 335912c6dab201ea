/**
 * The redux-persist storage of the session (reducer.ts): each persisted field under its own local
 * storage key instead of one JSON blob under `persist:session`. token, userName and nickName hold
 * the bare value, so `localStorage.token` is the token itself; the menu is JSON under `menu`, so a
 * reload draws the shell at once (the authority fetch then replaces it). redux-persist hands over
 * its usual serialised form (a JSON object whose values are JSON too); this adapter unpacks it on
 * write and packs it again on read. Empty values are removed rather than stored; a damaged menu is
 * left out, so the rest of the session still rehydrates.
 */
import type { WebStorage } from 'redux-persist';

/** How a field is kept: its stored text (undefined: remove the key) and the value read back. */
interface FieldFormat {
  write: (value: unknown) => string | undefined;
  read: (stored: string) => unknown;
}

const bareText: FieldFormat = {
  write: (value) => (typeof value === 'string' && value !== '' ? value : undefined),
  read: (stored) => stored,
};

const jsonList: FieldFormat = {
  write: (value) => (Array.isArray(value) && value.length > 0 ? JSON.stringify(value) : undefined),
  read: (stored) => {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? value : undefined;
  },
};

const FIELDS = { token: bareText, userName: bareText, nickName: bareText, menu: jsonList };

export const PERSISTED_SESSION_KEYS = Object.keys(FIELDS) as (keyof typeof FIELDS)[];

function readField(key: keyof typeof FIELDS): unknown {
  const stored = localStorage.getItem(key);
  try {
    return stored === null ? undefined : FIELDS[key].read(stored);
  } catch {
    return undefined; // Not JSON: nothing to restore.
  }
}

export const sessionStorage: WebStorage = {
  getItem: () => {
    const packed: Record<string, string> = {};
    for (const key of PERSISTED_SESSION_KEYS) {
      const value = readField(key);
      if (value !== undefined) packed[key] = JSON.stringify(value);
    }
    return Promise.resolve(Object.keys(packed).length > 0 ? JSON.stringify(packed) : null);
  },
  setItem: (_storageKey, serialized) => {
    const packed = JSON.parse(serialized) as Record<string, string | undefined>;
    for (const key of PERSISTED_SESSION_KEYS) {
      const raw = packed[key];
      const stored = FIELDS[key].write(raw === undefined ? undefined : JSON.parse(raw));
      if (stored === undefined) localStorage.removeItem(key);
      else localStorage.setItem(key, stored);
    }
    return Promise.resolve();
  },
  removeItem: () => {
    for (const key of PERSISTED_SESSION_KEYS) localStorage.removeItem(key);
    return Promise.resolve();
  },
};
