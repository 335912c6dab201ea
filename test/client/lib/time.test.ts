import { epochOfWallTime, formatTime } from '../../../src/client/lib/time';

describe('time in Asia/Shanghai', () => {
  it('reads a wall time as Shanghai time, whatever the zone the tests run in', () => {
    // 2024-01-01 08:00 in Shanghai is midnight UTC.
    expect(epochOfWallTime('2024-01-01 08:00:00')).toBe(Date.UTC(2024, 0, 1, 0, 0, 0));
    expect(epochOfWallTime('2024-01-01 00:00:00')).toBe(Date.UTC(2023, 11, 31, 16, 0, 0));
  });

  it('round-trips with formatTime', () => {
    for (const epoch of [0, 1_704_067_200_000, 1_767_225_599_000]) {
      expect(epochOfWallTime(formatTime(epoch))).toBe(epoch);
    }
  });
});
