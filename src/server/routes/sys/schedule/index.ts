/**
 * Schedules (sys/schedule): list, create and edit schedules, run one on demand, read its run log,
 * list the built-in tasks and preview an expression's next runs. The scheduler
 * (services/scheduler/scheduler.ts) runs them; only its registry of tasks
 * (services/scheduler/tasks.ts) decides what a run can do.
 */
import type { FastifyInstance } from 'fastify';
import { scheduleTasks, TASK_NAMES } from '../../../../contract/sys/schedule';
import { CRON_PREVIEW_RUNS, TIME_ZONE } from '../../../../contract/constants';
import type { Row } from '../../../db/schema';
import { defineRoute, ok } from '../../../lib/route';
import { checkField, conflict, notFound } from '../../../lib/errors';
import { contains, defaultOrder, fetchPage, given, inOrder, listOrder, ordered, type SortColumn } from '../../../lib/list-query';
import { sendXlsx } from '../../../lib/xlsx';
import { formatTime } from '../../../../contract/time';
import type { BodyOf } from '../../../../contract';
import type { SCHEDULE_LOG_SORT_KEYS, SCHEDULE_SORT_KEYS } from '../../../../contract/sys/schedule';
import { viewLabels } from '../../../services/dictionary-labels';
import { uniquely } from '../../../lib/conflicts';
import { valueTaken, versionedEdit } from '../../../lib/versioned-edit';
import { nextRunAfter, nextRuns, parseCron } from '../../../lib/cron';
import { assertTaskParams } from '../../../services/scheduler/tasks';
import { runSchedule } from '../../../services/scheduler/scheduler';
import { scheduleAuditTarget } from './audit-target';

const SAVED = '保存成功';
const NAME_TAKEN = '任务名称已存在';

type ScheduleFilters = NonNullable<BodyOf<'/sys/schedule/inquire'>['params']>;
/** The sort keys of the schedule list and its run log (contract) and the columns they order by. */
const SCHEDULE_SORT: Record<(typeof SCHEDULE_SORT_KEYS)[number], SortColumn> = {
  name: 'name',
  task: 'task',
  state: 'state',
  nextRunAt: { column: 'nextRunAt', nullable: true },
  lastRunAt: { column: 'lastRunAt', nullable: true },
};
const LOG_SORT: Record<(typeof SCHEDULE_LOG_SORT_KEYS)[number], SortColumn> = {
  startedAt: 'startedAt',
  endedAt: { column: 'endedAt', nullable: true },
  outcome: 'outcome',
};
const BY_ID = defaultOrder(['id', 'id']);
const NEWEST_FIRST = defaultOrder(['startedAt', 'startedAt', 'desc'], ['id', 'id', 'desc']);
/** How a run was started (services/scheduler/scheduler.ts), in a file's words. */
const TRIGGER_LABELS: Record<string, string> = { cron: '定时触发', manual: '手动执行' };

const taskLabel = (task: string) => ((TASK_NAMES as string[]).includes(task) ? scheduleTasks[task as keyof typeof scheduleTasks].label : task);

/** Stored params are JSON written by this server; anything else shows as no parameters. */
function storedParams(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const toRecord = (row: Row<'sysSchedule'>) => ({
  id: row.id,
  name: row.name,
  cron: row.cron,
  task: row.task,
  params: storedParams(row.params),
  state: row.state,
  remark: row.remark,
  nextRunAt: row.nextRunAt,
  lastRunAt: row.lastRunAt,
  lastOutcome: row.lastOutcome,
  lastMessage: row.lastMessage,
  version: row.version,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const toLogRecord = (row: Row<'sysScheduleLog'>) => ({
  id: row.id,
  scheduleId: row.scheduleId,
  trigger: row.trigger,
  startedAt: row.startedAt,
  endedAt: row.endedAt,
  outcome: row.outcome,
  message: row.message,
  instance: row.instance,
});

/** Checks everything a schedule's definition must satisfy; throws a 400 naming the first problem. */
function assertDefinition(definition: { cron: string; task: string; params: unknown }): void {
  checkField('cron', () => parseCron(definition.cron));
  assertTaskParams(definition.task, definition.params);
}

export function scheduleRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.audit.targets.register('schedule', scheduleAuditTarget);
  const nameTaken = (name: string) => valueTaken(app.db, 'sysSchedule', 'name', name);

  const filteredSchedules = (filters: ScheduleFilters) => {
    let query = app.db.selectFrom('sysSchedule');
    if (given(filters.name)) query = query.where((eb) => contains(eb.ref('name'), filters.name!));
    if (given(filters.task)) query = query.where('task', '=', filters.task.trim());
    if (filters.state !== undefined) query = query.where('state', '=', filters.state);
    return query;
  };

  defineRoute(app, '/sys/schedule/inquire', 'resource', async (request) => {
    const query = filteredSchedules(request.body.params ?? {});
    const order = listOrder(request.body.sort, SCHEDULE_SORT, BY_ID);
    const page = await fetchPage(
      request.body,
      () => query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      (limit, offset) => ordered(query.selectAll(), order).limit(limit).offset(offset).execute(),
    );
    return ok({ ...page, records: page.records.map(toRecord) });
  });

  defineRoute(app, '/sys/schedule/export', 'resource', async (request, reply) => {
    const { params = {}, sort } = request.body;
    const labels = await viewLabels(app.db, 'sys/schedule');
    const order = listOrder(sort, SCHEDULE_SORT, BY_ID);
    return sendXlsx(reply, {
      fileName: '定时任务',
      sheetName: '定时任务',
      columns: [
        { header: '任务名称', value: (row) => row.name },
        { header: 'Cron 表达式', value: (row) => row.cron },
        { header: '任务类型', value: (row) => taskLabel(row.task) },
        { header: '任务参数', width: 24, value: (row) => row.params },
        { header: '状态', width: 10, value: (row) => labels.labelOf('state', row.state) },
        { header: '下次执行', width: 20, value: (row) => formatTime(row.nextRunAt) },
        { header: '上次执行', width: 20, value: (row) => formatTime(row.lastRunAt) },
        { header: '最近运行结果', width: 12, value: (row) => (row.lastOutcome ? labels.labelOf('lastOutcome', row.lastOutcome) : '') },
        { header: '最近运行信息', width: 30, value: (row) => row.lastMessage },
        { header: '备注', width: 30, value: (row) => row.remark },
      ],
      rows: inOrder(order, (seek, limit) =>
        ordered(
          filteredSchedules(params)
            .$if(seek !== null, (q) => q.where(seek!))
            .selectAll(),
          order,
        )
          .limit(limit)
          .execute(),
      ),
    });
  });

  defineRoute(app, '/sys/schedule/creation', 'resource', async (request) => {
    const body = request.body;
    assertDefinition(body);
    if (await nameTaken(body.name)) throw conflict(NAME_TAKEN);
    const now = Date.now();
    const row = await uniquely(
      () =>
        app.db
          .insertInto('sysSchedule')
          .values({
            name: body.name,
            cron: body.cron,
            task: body.task,
            params: JSON.stringify(body.params),
            state: body.state,
            remark: body.remark,
            nextRunAt: body.state === 1 ? nextRunAfter(body.cron, now) : null,
            lastRunAt: null,
            lastOutcome: '',
            lastMessage: '',
            createdAt: now,
            updatedAt: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      NAME_TAKEN,
    );
    return ok(toRecord(row), SAVED);
  });

  defineRoute(app, '/sys/schedule/edit', 'resource', async (request) => {
    const body = request.body;
    const row = await versionedEdit(app.db, {
      table: 'sysSchedule',
      edit: body,
      noun: '定时任务',
      unique: { column: 'name', value: body.name, message: NAME_TAKEN },
      check: () => assertDefinition(body),
      changes: (current, now) => {
        // Pausing stops future runs at once; resuming or a new expression schedules from now on;
        // any other edit keeps the run already planned.
        const reschedule = current.state !== 1 || current.cron !== body.cron || current.nextRunAt === null;
        const nextRunAt = body.state !== 1 ? null : reschedule ? nextRunAfter(body.cron, now) : current.nextRunAt;
        return { name: body.name, cron: body.cron, task: body.task, params: JSON.stringify(body.params), state: body.state, remark: body.remark, nextRunAt };
      },
    });
    return ok(toRecord(row), SAVED);
  });

  defineRoute(app, '/sys/schedule/run', 'resource', async (request) => {
    const schedule = await app.db.selectFrom('sysSchedule').select(['id', 'task', 'params']).where('id', '=', request.body.id).executeTakeFirst();
    if (!schedule) throw notFound('定时任务');
    // A manual run leaves the planned next run alone, and works on a paused schedule too.
    const log = await runSchedule(app, schedule, 'manual', Date.now());
    return ok(toLogRecord(log), log.outcome === 'success' ? '执行成功' : `执行失败：${log.message}`);
  });

  defineRoute(app, '/sys/schedule/log', 'resource', async (request) => {
    const { scheduleId } = request.body.params;
    const schedule = await app.db.selectFrom('sysSchedule').select('id').where('id', '=', scheduleId).executeTakeFirst();
    if (!schedule) throw notFound('定时任务');
    const query = app.db.selectFrom('sysScheduleLog').where('scheduleId', '=', scheduleId);
    const order = listOrder(request.body.sort, LOG_SORT, NEWEST_FIRST);
    const page = await fetchPage(
      request.body,
      () => query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      (limit, offset) => ordered(query.selectAll(), order).limit(limit).offset(offset).execute(),
    );
    return ok({ ...page, records: page.records.map(toLogRecord) });
  });

  defineRoute(app, '/sys/schedule/log/export', 'resource', async (request, reply) => {
    const { params, sort } = request.body;
    const schedule = await app.db.selectFrom('sysSchedule').select(['id', 'name']).where('id', '=', params.scheduleId).executeTakeFirst();
    if (!schedule) throw notFound('定时任务');
    const labels = await viewLabels(app.db, 'sys/schedule');
    const order = listOrder(sort, LOG_SORT, NEWEST_FIRST);
    return sendXlsx(reply, {
      fileName: `运行日志-${schedule.name}`,
      sheetName: '运行日志',
      columns: [
        { header: '开始时间', width: 20, value: (row) => formatTime(row.startedAt) },
        { header: '结束时间', width: 20, value: (row) => formatTime(row.endedAt) },
        { header: '触发方式', width: 10, value: (row) => TRIGGER_LABELS[row.trigger] ?? row.trigger },
        // A run's outcome shares the dictionary of the schedule's last outcome, as on screen.
        { header: '结果', width: 10, value: (row) => labels.labelOf('lastOutcome', row.outcome) },
        { header: '信息', width: 40, value: (row) => row.message },
        { header: '实例', width: 16, value: (row) => row.instance },
      ],
      rows: inOrder(order, (seek, limit) =>
        ordered(
          app.db
            .selectFrom('sysScheduleLog')
            .where('scheduleId', '=', schedule.id)
            .$if(seek !== null, (q) => q.where(seek!))
            .selectAll(),
          order,
        )
          .limit(limit)
          .execute(),
      ),
    });
  });

  defineRoute(app, '/sys/schedule/tasks', 'resource', () =>
    ok(TASK_NAMES.map((name) => ({ name, label: scheduleTasks[name].label, description: scheduleTasks[name].description, params: scheduleTasks[name].params }))),
  );

  defineRoute(app, '/sys/schedule/preview', 'resource', (request) => {
    const { cron } = request.body;
    return ok({ timeZone: TIME_ZONE, next: checkField('cron', () => nextRuns(cron, Date.now(), CRON_PREVIEW_RUNS)) });
  });
  done();
}
