import type { Pacing } from '../../../src/server/services/device-status/offline-sweep';

/** A pacing that answers these sizes in turn, one per chunk, whatever the chunks took. */
export function scriptedPacing(sizes: number[]): Pacing {
  let next = 0;
  return {
    get size() {
      return sizes[next % sizes.length];
    },
    took() {
      next += 1;
    },
  };
}
