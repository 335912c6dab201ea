/**
 * A time shown as people read recency ("3 分钟前", "5 分钟后"), the exact time in Asia/Shanghai on
 * hover and in the element's datetime. All instances share one timer that redraws them every 30 s.
 */
import { Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useSyncExternalStore } from 'react';

import { dayjs } from '../lib/dayjs';
import { formatTime } from '../lib/time';

const TICK_MS = 30_000;

const listeners = new Set<() => void>();
let tick = 0;
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    tick += 1;
    listeners.forEach((notify) => notify());
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const readTick = () => tick;

/** "3 分钟前" / "3 分钟后" from `reference` (dayjs's zh-cn says "3 分钟内" for the future, which reads as "within"). */
export function relativeTo(epochMs: number, reference: number): string {
  const span = dayjs(epochMs).from(reference, true);
  return epochMs > reference ? `${span}后` : `${span}前`;
}

interface RelativeTimeProps {
  value: number | null | undefined;
  /** Shown for a missing time. */
  empty?: ReactNode;
}

export function RelativeTime({ value, empty = '' }: RelativeTimeProps) {
  // Subscribed only to be drawn again as time passes; the text is measured from the real clock.
  useSyncExternalStore(subscribe, readTick);
  if (value === null || value === undefined || !Number.isFinite(value)) return <>{empty}</>;
  const exact = formatTime(value);
  return (
    <Tooltip title={exact}>
      {/* eslint-disable-next-line react-hooks/purity -- read on purpose: a cached tick could be older than the value */}
      <time dateTime={new Date(value).toISOString()}>{relativeTo(value, Date.now())}</time>
    </Tooltip>
  );
}
