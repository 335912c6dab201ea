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

/**
 * A pacing of one size that tells how many chunks were under way at once: a chunk begins when it
 * reads the size and ends when it reports what it took. `underWay[i]` counts the chunks under way
 * (itself included) when the i-th began; `most` is the largest of them.
 */
export function overlapPacing(size: number): { pacing: Pacing; most: () => number; underWay: number[] } {
  let begun = 0;
  let ended = 0;
  const underWay: number[] = [];
  return {
    pacing: {
      get size() {
        begun += 1;
        underWay.push(begun - ended);
        return size;
      },
      took() {
        ended += 1;
      },
    },
    most: () => Math.max(0, ...underWay),
    underWay,
  };
}
