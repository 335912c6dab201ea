/**
 * How a time reads wherever people read one (screens and exported files): epoch milliseconds as
 * `YYYY-MM-DD HH:mm:ss` on the clock of the product's zone (Asia/Shanghai, docs/architecture.md),
 * whatever the machine's own.
 */
import { TIME_ZONE } from './constants';

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
