/** Times travel as epoch milliseconds and are always shown in the product's zone (docs/client.md, Time and locale). */
import { formatTime } from '../../contract/time';

export { formatTime };

/**
 * The instant at which the clock in Asia/Shanghai shows this wall time (`YYYY-MM-DD HH:mm:ss`), so a
 * time picked on a screen means the same instant whatever the browser's own zone.
 */
export function epochOfWallTime(wallTime: string): number {
  const asUtc = Date.parse(`${wallTime.replace(' ', 'T')}Z`);
  // The zone's offset at that moment: how far its clock runs ahead of UTC.
  const offset = Date.parse(`${formatTime(asUtc).replace(' ', 'T')}Z`) - asUtc;
  return asUtc - offset;
}
