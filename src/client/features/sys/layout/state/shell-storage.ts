/**
 * The shell's choices kept per user in local storage: `shell.<kind>.<userName>` holding JSON (e.g.
 * `shell.tabs.admin` = `["sys/user"]`). Keyed by user, so the next person to sign in on the
 * browser starts from their own; the end of a session clears local storage, and these with it.
 */
import type { ListenerMiddlewareInstance } from '@reduxjs/toolkit';

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

/** Writes a per-user slice to local storage whenever a user's part of it changes. */
export function keepPerUser<S, T>(listener: ListenerMiddlewareInstance, { kind, select, toStored }: PerUserOptions<S, T>): void {
  const stored = (value: T | undefined) => (value === undefined ? undefined : toStored(value));
  listener.startListening.withTypes<S>()({
    predicate: (_action, current, previous) => select(current) !== select(previous),
    effect: (_action, listenerApi) => {
      const now = select(listenerApi.getState());
      const before = select(listenerApi.getOriginalState());
      for (const userName of new Set([...Object.keys(now), ...Object.keys(before)])) {
        const next = stored(now[userName]);
        if (JSON.stringify(next) === JSON.stringify(stored(before[userName]))) continue;
        if (next === undefined) localStorage.removeItem(keyPrefix(kind) + userName);
        else localStorage.setItem(keyPrefix(kind) + userName, JSON.stringify(next));
      }
    },
  });
}
