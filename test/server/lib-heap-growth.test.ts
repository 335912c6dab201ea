/** The server's heap growth limit (heap-growth.ts): on by default, set through V8's flag, 0 leaves V8's own. */
import { loadConfig } from '../../src/server/config';
import { limitHeapGrowth } from '../../src/server/lib/heap-growth';

describe('heap growth', () => {
  it('limits the heap to 75 % growth by default and takes HEAP_GROWING_PERCENT', () => {
    expect(loadConfig({}).heapGrowingPercent).toBe(75);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '40' }).heapGrowingPercent).toBe(40);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).toBe(0);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '-5' }).heapGrowingPercent).toBe(0);
  });

  it('sets V8’s heap-growing-percent, and nothing for 0', () => {
    const set: string[] = [];
    limitHeapGrowth(75, (flags) => set.push(flags));
    limitHeapGrowth(0, (flags) => set.push(flags));
    expect(set).toEqual(['--heap-growing-percent=75']);
  });
});
