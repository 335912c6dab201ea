/** msw handlers for the schedule screen: schedules, the task registry, cron preview, runs and logs. */
import { http } from 'msw';

import type { DataOf } from '../../../../src/contract';
import { api, fail, ok } from '../handlers';
import type { RequestLog } from '../request-log';
import { dictEntry, paged, sysCommonHandlers, SYS_MENU_ID } from './sys-common';

type ScheduleRow = DataOf<'/sys/schedule/inquire'>['records'][number];
type LogRow = DataOf<'/sys/schedule/log'>['records'][number];

/** 2026-01-01 03:00 Asia/Shanghai. */
export const THREE_AM = Date.UTC(2025, 11, 31, 19, 0, 0);
const DAY = 86_400_000;

export const sweepSchedule: ScheduleRow = {
  id: 5,
  name: '设备离线巡检',
  cron: '*/5 * * * *',
  task: 'device.offlineSweep',
  params: { minutes: 10 },
  state: 1,
  remark: '',
  nextRunAt: THREE_AM,
  lastRunAt: THREE_AM - DAY,
  lastOutcome: 'failed',
  lastMessage: '数据库忙',
  version: 7,
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
};

export const tasks: DataOf<'/sys/schedule/tasks'> = [
  {
    name: 'device.offlineSweep',
    label: '设备离线检测',
    description: '把超过指定分钟数没有心跳的设备标记为离线',
    params: { type: 'object', properties: { minutes: { type: 'integer', title: '心跳超时（分钟）', minimum: 1, maximum: 1440 } }, required: ['minutes'] },
  },
  {
    name: 'schedule.pruneLogs',
    label: '清理任务日志',
    description: '删除早于指定天数的定时任务运行日志',
    params: { type: 'object', properties: { days: { type: 'integer', title: '保留天数', minimum: 1, maximum: 3650, default: 30 } }, required: ['days'] },
  },
  {
    name: 'session.purgeExpired',
    label: '清理过期会话',
    description: '删除已过期或已撤销的登录会话',
    params: { type: 'object', properties: {} },
  },
];

export const runLog: LogRow = {
  id: 90,
  scheduleId: sweepSchedule.id,
  trigger: 'manual',
  startedAt: THREE_AM,
  endedAt: THREE_AM + 1500,
  outcome: 'success',
  message: '3 台设备标记为离线',
  instance: 'api-1',
};

const scheduleDict = [
  dictEntry('state', '1', '运行中', 1),
  dictEntry('state', '0', '已暂停', 2),
  dictEntry('lastOutcome', 'success', '成功', 1),
  dictEntry('lastOutcome', 'failed', '失败', 2),
];

export const INVALID_CRON_MSG = 'Cron 表达式格式不正确：应有 5 或 6 个字段';

export function scheduleHandlers(log: RequestLog) {
  return [
    ...sysCommonHandlers({ [SYS_MENU_ID.schedule]: scheduleDict }),
    http.post(api('/sys/schedule/inquire'), async ({ request }) => {
      await log.record(request);
      return ok(paged([sweepSchedule]));
    }),
    http.post(api('/sys/schedule/tasks'), () => ok(tasks)),
    http.post(api('/sys/schedule/preview'), async ({ request }) => {
      const { cron } = (await log.record(request)) as { cron: string };
      if (cron.split(' ').length < 5) return fail(400, INVALID_CRON_MSG);
      return ok({ timeZone: 'Asia/Shanghai', next: [0, 1, 2, 3, 4].map((day) => THREE_AM + day * DAY) });
    }),
    http.post(api('/sys/schedule/creation'), async ({ request }) => {
      await log.record(request);
      return ok(sweepSchedule, '定时任务已创建');
    }),
    http.post(api('/sys/schedule/edit'), async ({ request }) => {
      await log.record(request);
      return ok(sweepSchedule, '定时任务已修改');
    }),
    http.post(api('/sys/schedule/run'), async ({ request }) => {
      await log.record(request);
      return ok(runLog, '已执行：3 台设备标记为离线');
    }),
    http.post(api('/sys/schedule/log'), async ({ request }) => {
      await log.record(request);
      return ok(paged([runLog]));
    }),
  ];
}
