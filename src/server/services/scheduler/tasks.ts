/**
 * The registry of built-in tasks: the only code a schedule can run (docs/api/schedule.md). A
 * schedule names one of the contract's `scheduleTasks` keys and carries parameters checked against
 * that task's schema; nothing from a request or the database ever becomes a class, function or
 * module name.
 */
import type { FastifyInstance } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { scheduleTasks, TASK_NAMES, type TaskName, type TaskParams } from '../../../contract/sys/schedule';
import { invalidField } from '../../lib/errors';
import { pruneChain } from '../../lib/audit-chain';
import { sweepOffline } from '../device-status/offline-sweep';
import { pruneEvents } from '../events';

export interface TaskContext {
  app: FastifyInstance;
  /** The scheduler's clock for this run (epoch ms), so a run is judged against the time it was due. */
  now: number;
}

/** A task answers the message its run log shows. */
type TaskRun<N extends TaskName> = (context: TaskContext, params: TaskParams<N>) => Promise<string>;

const DAY_MS = 86_400_000;
const implementations: { [N in TaskName]: TaskRun<N> } = {
  'device.offlineSweep': ({ app, now }, { minutes }) => sweepOffline(app, now, minutes),
  'session.purgeExpired': async ({ app, now }) => {
    const purged = await app.sessions.purgeExpired(now);
    // The live stream's housekeeping rides along: its outbox past the resume window, lapsed tickets.
    await pruneEvents(app.db, now);
    return `已清理 ${purged} 个过期会话`;
  },
  'schedule.pruneLogs': async ({ app, now }, { days }) => {
    const result = await app.db
      .deleteFrom('sysScheduleLog')
      .where('startedAt', '<', now - days * DAY_MS)
      .executeTakeFirst();
    return `已删除 ${Number(result.numDeletedRows)} 条 ${days} 天前的运行日志`;
  },
  'monitor.pruneLogs': async ({ app, now }, { days }) => {
    const cutoff = now - days * DAY_MS;
    const operations = await pruneChain(app.db, 'operation', cutoff);
    const logins = await pruneChain(app.db, 'login', cutoff);
    return `已删除 ${operations} 条操作日志和 ${logins} 条登录日志（${days} 天前）`;
  },
  'device.onlineSample': async ({ app, now }, { days }) => {
    const counts = await app.db
      .selectFrom('hotelDevicePresence')
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number>('online').as('online')])
      .executeTakeFirstOrThrow();
    const online = Number(counts.online ?? 0);
    const total = Number(counts.total);
    await app.db.insertInto('hotelDeviceOnlineSample').values({ sampledAt: now, online, total }).execute();
    await app.db
      .deleteFrom('hotelDeviceOnlineSample')
      .where('sampledAt', '<', now - days * DAY_MS)
      .execute();
    return `在线设备 ${online} / ${total} 台`;
  },
};

const checkers = new Map<TaskName, TypeCheck<TSchema>>(TASK_NAMES.map((name) => [name, TypeCompiler.Compile(scheduleTasks[name].params)]));

/** Own keys only: a name such as "constructor" or "__proto__" must not reach an object's prototype. */
export const isTaskName = (name: string): name is TaskName => Object.prototype.hasOwnProperty.call(scheduleTasks, name);

function describeParamsError(error: ValueError): string {
  const key = error.path.split('/').pop() ?? '';
  const title = (error.schema as { title?: string }).title ?? key;
  const limits = error.schema as { minimum?: number; maximum?: number };
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return `任务参数不正确：${title}不能为空`;
    case ValueErrorType.ObjectAdditionalProperties:
      return `任务参数不正确：不支持的参数 ${key}`;
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `任务参数不正确：${title}不能小于 ${limits.minimum}`;
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return `任务参数不正确：${title}不能大于 ${limits.maximum}`;
    case ValueErrorType.Integer:
      return `任务参数不正确：${title}应为整数`;
    case ValueErrorType.Object:
      return '任务参数不正确：应为 JSON 对象';
    default:
      return `任务参数不正确：${title || '参数'}不合法`;
  }
}

/** The body path of a parameter problem: the parameter itself when it is one (`params.days`). */
function paramsField(error: ValueError): string {
  const key = error.path.split('/').filter(Boolean)[0];
  return key ? `params.${key}` : 'params';
}

/** Throws a 400 unless `task` is a registered task and `params` fit its schema. */
export function assertTaskParams(task: string, params: unknown): asserts task is TaskName {
  const checker = isTaskName(task) ? checkers.get(task) : undefined;
  if (!checker) throw invalidField('task', `任务类型不正确：${task} 不是内置任务`);
  const error = checker.Errors(params).First();
  if (error) throw invalidField(paramsField(error), describeParamsError(error));
}

/**
 * Runs a registered task. The name and parameters are checked again here because a stored
 * schedule may predate a change of the registry.
 */
export async function runTask(task: string, params: unknown, context: TaskContext): Promise<string> {
  assertTaskParams(task, params);
  // The check above proved `params` fits this task's schema, which is what TaskRun<task> expects.
  const run = implementations[task] as (context: TaskContext, params: unknown) => Promise<string>;
  return run(context, params);
}
