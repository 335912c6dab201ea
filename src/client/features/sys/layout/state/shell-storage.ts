/**
 * The shell's choices kept per user in local storage: `shell.<kind>.<userName>` holding JSON (e.g.
 * `shell.tabs.admin` = `["sys/user"]`). Keyed by user, so the next person to sign in on the
 * browser starts from their own; the end of a session clears local storage, and these with it
 * (features/session/session-end.ts). Read synchronously as each slice's initial state, so no
 * rehydration is needed; written by a small middleware after every change.
 */
import type { Middleware } from '@reduxjs/toolkit';

const keyPrefix = (kind: string) => `shell.${kind}.`;

/** Every user's stored value of a kind; `parse` drops what it cannot read (a damaged entry). */
export function readPerUser<T>(kind: string, parse: (stored: unknown) => T | undefined): Record<string, T> {
  const found: Record<string, T> = {};
  for (const key of Object.keys(localStorage)) {
    if (!key.startsWith(keyPrefix(kind))) continue;
    try {
      const value = parse(JSON.parse(localStorage.getItem(key) ?? 'null'));
      if (value !== undefined) found[key.slice(keyPrefix(kind).length)] = value;
    } catch {
      // Not JSON: nothing to restore.
    }
  }
  return found;
}

interface PerUserOptions<S, T> {
  kind: string;
  select: (state: S) => Record<string, T>;
  /** What is worth keeping of a user's state; undefined removes the key. */
  toStored: (value: T) => unknown;
}

/** A middleware writing a per-user slice to local storage whenever a user's part of it changes. */
export function keepPerUser<S, T>({ kind, select, toStored }: PerUserOptions<S, T>): Middleware<object, S> {
  const stored = (value: T | undefined) => (value === undefined ? undefined : toStored(value));
  return (store) => (next) => (action) => {
    const before = select(store.getState());
    const result = next(action);
    const now = select(store.getState());
    if (now === before) return result;
    for (const userName of new Set([...Object.keys(now), ...Object.keys(before)])) {
      const kept = stored(now[userName]);
      if (JSON.stringify(kept) === JSON.stringify(stored(before[userName]))) continue;
      if (kept === undefined) localStorage.removeItem(keyPrefix(kind) + userName);
      else localStorage.setItem(keyPrefix(kind) + userName, JSON.stringify(kept));
    }
    return result;
  };
}
