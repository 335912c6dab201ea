/**
 * Cron expressions, always read in the product's time zone, Asia/Shanghai (docs/architecture.md),
 * whatever the server's own. croner parses them; this module turns its English errors into one
 * Chinese sentence and refuses anything but 5 fields (minute hour day month weekday) or 6 (with
 * seconds first).
 */
import { Cron } from 'croner';
import { TIME_ZONE } from '../../contract/constants';
import { invalid } from './errors';

const PREFIX = 'Cron 表达式不正确：';
/** croner's field names, with their Chinese name and allowed range. */
const FIELDS: Record<string, string> = {
  second: '秒（0-59）',
  minute: '分钟（0-59）',
  hour: '小时（0-23）',
  day: '日期（1-31）',
  month: '月份（1-12）',
  dayOfWeek: '星期（0-7）',
};
/** Field positions as croner counts them: a 5-field expression gets a 0 seconds field in front. */
const POSITIONS = ['秒', '分钟', '小时', '日期', '月份', '星期'];

function describeCronError(message: string): string {
  const detail = message.replace(/^CronPattern: /, '');
  const value = /^Invalid value for (\w+)/.exec(detail);
  if (value) return `${PREFIX}${FIELDS[value[1]] ?? value[1]}的取值超出范围`;
  const entry = /^configuration entry (\d+) \((.*)\) contains illegal characters/.exec(detail);
  if (entry) return `${PREFIX}${POSITIONS[Number(entry[1])] ?? ''}字段“${entry[2]}”含有不支持的字符`;
  const range = /^From value is larger than to value: '(.*)'/.exec(detail);
  if (range) return `${PREFIX}范围“${range[1]}”的起点大于终点`;
  const step = /^Syntax error, illegal stepping: '?([^']*)'?$/.exec(detail);
  if (step) return `${PREFIX}步长“${step[1]}”不正确`;
  if (/is empty/.test(detail)) return `${PREFIX}有空的取值，请检查多余的逗号`;
  return `${PREFIX}语法错误（${detail}）`;
}

const NEVER_FIRES = `${PREFIX}该表达式永远不会触发`;

/**
 * Runs a search for next runs. croner looks for a date that matches by recursing day after day;
 * for some impossible dates (31 April, 31 in 2,4,6) that recursion overflows the stack instead of
 * answering "none", so an overflow means the same as no next run: the expression never fires.
 */
function searching<T>(search: () => T): T {
  try {
    return search();
  } catch (error) {
    if (error instanceof RangeError) throw invalid(NEVER_FIRES);
    throw error;
  }
}

/** Parses an expression or throws a 400 that says what is wrong with it. */
export function parseCron(expression: string): Cron {
  const fields = expression.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6) {
    throw invalid(`${PREFIX}应为 5 段（分 时 日 月 周）或 6 段（秒 分 时 日 月 周），以空格分隔`);
  }
  let cron: Cron;
  try {
    cron = new Cron(expression.trim(), { timezone: TIME_ZONE, paused: true, mode: '5-or-6-parts' });
  } catch (error) {
    throw invalid(describeCronError(error instanceof Error ? error.message : String(error)));
  }
  if (!searching(() => cron.nextRun())) throw invalid(NEVER_FIRES);
  return cron;
}

/** The first run strictly after `from` (epoch ms), or null when the expression never fires again. */
export function nextRunAfter(expression: string, from: number): number | null {
  const cron = parseCron(expression);
  return searching(() => cron.nextRun(new Date(from)))?.getTime() ?? null;
}

export function nextRuns(expression: string, from: number, count: number): number[] {
  const cron = parseCron(expression);
  return searching(() => cron.nextRuns(count, new Date(from))).map((date) => date.getTime());
}
