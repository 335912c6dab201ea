/**
 * A time range filter: start and end in Asia/Shanghai (docs/client.md, Time and locale), held by the form as epoch
 * milliseconds so the request carries instants, not the browser's wall clock. Loaded on demand:
 * the date picker stays out of the screens that have no time filter.
 */
import { DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';

import { dayjs } from '../../lib/dayjs';
import { epochOfWallTime, formatTime } from '../../lib/time';
import type { CustomControlProps, TimeRange } from './types';

const WALL_TIME = 'YYYY-MM-DD HH:mm:ss';
const MINUTE_MS = 60_000;

type PickerRange = [Dayjs | null, Dayjs | null];

/** The picker shows and picks Shanghai wall times as plain local dayjs values. */
const toPicker = (epoch: number | null): Dayjs | null => (epoch === null ? null : dayjs(formatTime(epoch), WALL_TIME));
const minuteOf = (value: Dayjs): number => epochOfWallTime(value.format('YYYY-MM-DD HH:mm:00'));
/** The picker shows minutes: a range covers its first minute from the start and its last one to the end. */
const startOf = (value: Dayjs | null): number | null => (value === null ? null : minuteOf(value));
const endOf = (value: Dayjs | null): number | null => (value === null ? null : minuteOf(value) + MINUTE_MS - 1);
const nowInZone = (): Dayjs => dayjs(formatTime(Date.now()), WALL_TIME);

const presets = [
  { label: '最近 1 小时', value: () => [nowInZone().subtract(1, 'hour'), nowInZone()] as [Dayjs, Dayjs] },
  { label: '今天', value: () => [nowInZone().startOf('day'), nowInZone().endOf('day')] as [Dayjs, Dayjs] },
  { label: '最近 7 天', value: () => [nowInZone().subtract(7, 'day').startOf('day'), nowInZone().endOf('day')] as [Dayjs, Dayjs] },
  { label: '最近 30 天', value: () => [nowInZone().subtract(30, 'day').startOf('day'), nowInZone().endOf('day')] as [Dayjs, Dayjs] },
];

export default function TimeRangeInput({ id, value, onChange }: CustomControlProps) {
  const range = value as TimeRange | undefined;
  const picked: PickerRange | null = range ? [toPicker(range[0]), toPicker(range[1])] : null;
  return (
    <DatePicker.RangePicker
      id={id}
      value={picked}
      onChange={(next) => onChange?.(next ? [startOf(next[0]), endOf(next[1])] : undefined)}
      showTime={{ format: 'HH:mm' }}
      format="YYYY-MM-DD HH:mm"
      allowEmpty={[true, true]}
      presets={presets}
      placeholder={['开始时间', '结束时间']}
    />
  );
}
