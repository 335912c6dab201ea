/**
 * Schedules (sys/schedule). A schedule names a task from the server's fixed registry (never code,
 * a class or a module from the request) and carries that task's typed parameters.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { field, pagedRequest, paged, versioned, IdBody, listExport, sortRequest, pageFields } from '../common';
import { download, post, postEmpty, acts, checks, reads } from '../endpoint';
import { CRON_PREVIEW_RUNS } from '../constants';

/** The built-in tasks and their parameter shapes; the server registry implements exactly these. */
export const scheduleTasks = {
  'device.offlineSweep': {
    label: '设备离线检测',
    description: '把超过指定分钟数没有心跳的设备标记为离线',
    params: Type.Object({ minutes: field.int('心跳超时（分钟）', 1, 1440) }, { additionalProperties: false }),
  },
  'session.purgeExpired': {
    label: '清理过期会话',
    description: '删除已过期或已撤销的登录会话',
    params: Type.Object({}, { additionalProperties: false }),
  },
  'schedule.pruneLogs': {
    label: '清理任务日志',
    description: '删除早于指定天数的定时任务运行日志',
    params: Type.Object({ days: field.int('保留天数', 1, 3650, 30) }, { additionalProperties: false }),
  },
  'monitor.pruneLogs': {
    label: '清理审计日志',
    description: '删除早于指定天数的操作日志和登录日志（至少保留 180 天），哈希链从保留的最早一条起仍可校验',
    params: Type.Object({ days: Type.Integer({ title: '保留天数', minimum: 180, maximum: 3650, default: 180 }) }, { additionalProperties: false }),
  },
  'device.onlineSample': {
    label: '设备在线统计',
    description: '记录此刻的在线设备数和设备总数（控制台的 24 小时在线曲线），并删除早于保留天数的记录',
    params: Type.Object({ days: field.int('保留天数', 1, 366, 7) }, { additionalProperties: false }),
  },
} satisfies Record<string, { label: string; description: string; params: TSchema }>;
export type TaskName = keyof typeof scheduleTasks;
export type TaskParams<T extends TaskName> = Static<(typeof scheduleTasks)[T]['params']>;
export const TASK_NAMES = Object.keys(scheduleTasks) as TaskName[];

export const TaskInfo = Type.Object({
  name: Type.String(),
  label: Type.String(),
  description: Type.String(),
  /** JSON schema of the parameters, so the dialog can build its inputs. */
  params: Type.Unknown(),
});

export const RUN_OUTCOMES = ['running', 'success', 'failed'] as const;

export const ScheduleRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  cron: Type.String(),
  task: Type.String(),
  params: Type.Record(Type.String(), Type.Unknown()),
  state: Type.Integer(),
  remark: Type.String(),
  nextRunAt: field.nullable(Type.Integer()),
  lastRunAt: field.nullable(Type.Integer()),
  lastOutcome: Type.String(),
  lastMessage: Type.String(),
  version: Type.Integer(),
  createdAt: field.time(),
  updatedAt: field.time(),
});

export const SCHEDULE_SORT_KEYS = ['name', 'task', 'state', 'nextRunAt', 'lastRunAt'] as const;

export const ScheduleInquire = pagedRequest(
  {
    name: field.note('任务名称', 32),
    task: field.note('任务类型', 40),
    state: field.flag('状态'),
  },
  SCHEDULE_SORT_KEYS,
);

const scheduleFields = {
  name: field.text('任务名称', 32),
  cron: field.text('Cron 表达式', 100),
  task: field.note('任务类型', 40),
  params: Type.Record(Type.String(), Type.Unknown(), { title: '任务参数' }),
  state: field.flag('状态'),
  remark: field.remark(),
};
export const ScheduleCreation = Type.Object(scheduleFields, { additionalProperties: false });
export const ScheduleEdit = Type.Object({ id: field.id(), ...scheduleFields, ...versioned }, { additionalProperties: false });

export const CronPreviewBody = Type.Object({ cron: field.text('Cron 表达式', 100) }, { additionalProperties: false });
export const CronPreview = Type.Object({ timeZone: Type.String(), next: Type.Array(Type.Integer(), { maxItems: CRON_PREVIEW_RUNS }) });

export const ScheduleLogRecord = Type.Object({
  id: Type.Integer(),
  scheduleId: Type.Integer(),
  trigger: Type.String(),
  startedAt: Type.Integer(),
  endedAt: field.nullable(Type.Integer()),
  outcome: Type.String(),
  message: Type.String(),
  /** The server instance (INSTANCE_ID) that ran it. */
  instance: Type.String(),
});
export const SCHEDULE_LOG_SORT_KEYS = ['startedAt', 'endedAt', 'outcome'] as const;

export const ScheduleLogInquire = Type.Object(
  {
    ...pageFields(20),
    params: Type.Object({ scheduleId: field.id('定时任务') }, { additionalProperties: false }),
    sort: Type.Optional(sortRequest(SCHEDULE_LOG_SORT_KEYS)),
  },
  { additionalProperties: false },
);

export const scheduleEndpoints = {
  '/sys/schedule/inquire': post(ScheduleInquire, paged(ScheduleRecord), reads),
  '/sys/schedule/creation': post(ScheduleCreation, ScheduleRecord, acts('schedule')),
  '/sys/schedule/edit': post(ScheduleEdit, ScheduleRecord, acts('schedule')),
  '/sys/schedule/export': download(listExport(ScheduleInquire)),
  '/sys/schedule/run': post(IdBody, ScheduleLogRecord, acts('schedule')),
  '/sys/schedule/log': post(ScheduleLogInquire, paged(ScheduleLogRecord), reads),
  '/sys/schedule/log/export': download(listExport(ScheduleLogInquire)),
  '/sys/schedule/tasks': postEmpty(Type.Array(TaskInfo), reads),
  '/sys/schedule/preview': post(CronPreviewBody, CronPreview, checks),
};
