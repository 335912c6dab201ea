import { createContext, useContext, useEffect, useRef } from 'react';

/**
 * Whether the screen is the one on show. The shell keeps the screens of open tabs mounted but
 * hidden, so their filters, page and scroll survive a tab switch; outside the shell a screen is
 * always on show.
 */
export const ScreenActivityContext = createContext(true);

export const useScreenActive = (): boolean => useContext(ScreenActivityContext);

/**
 * Reads the data again when the screen comes back into view: what a screen shows is current when
 * staff look at it (other staff, devices and jobs change it meanwhile), with its filters and page kept.
 */
export function useRefetchOnReturn(refetch: () => unknown, skip = false): void {
  const active = useScreenActive();
  const wasActive = useRef(active);
  useEffect(() => {
    if (active && !wasActive.current && !skip) refetch();
    wasActive.current = active;
  }, [active, skip, refetch]);
}
