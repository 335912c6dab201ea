/** Times travel as epoch milliseconds and are always shown in the product's zone (SPEC 9). */
import { TIME_ZONE } from '../../contract/constants';

const formatter = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** `YYYY-MM-DD HH:mm:ss` in Asia/Shanghai; empty for a missing time. */
export function formatTime(epochMs: number | null | undefined): string {
  if (epochMs === null || epochMs === undefined || !Number.isFinite(epochMs)) return '';
  const parts = Object.fromEntries(formatter.formatToParts(new Date(epochMs)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

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
