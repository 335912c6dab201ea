import { useEffect, useState } from 'react';

/**
 * The value once it has stopped changing for `delayMs`: typing in a search box or a cron field
 * asks the server once per pause, not once per key.
 */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
