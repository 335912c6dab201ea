/**
 * Runs schedules in the server process. Each tick reads the due schedules and claims each due run
 * with one conditional UPDATE on the next-run time it read: with several instances on one
 * database only one of them matches the row, so each due run happens exactly once. The claim
 * moves the schedule on to its following run before the task starts, so a crash mid-run loses
 * that run instead of repeating it, and a run missed while every instance was down happens once.
 */
import type { FastifyInstance } from 'fastify';
import type { Row } from '../../db/schema';
import { nextRunAfter } from '../../lib/cron';
import { runTask } from './tasks';

export type RunTrigger = 'cron' | 'manual';

export interface Scheduler {
  /** Stops ticking; resolves once a tick in progress has finished. */
  stop(): Promise<void>;
}

/** Due runs handled per tick; the rest wait for the next tick. */
const BATCH_SIZE = 50;
const MESSAGE_MAX = 500;
const INSTANCE_MAX = 64;

/** The next run of a stored expression, or null (no more runs) when it no longer parses. */
function followingRun(cron: string, now: number): number | null {
  try {
    return nextRunAfter(cron, now);
  } catch {
    return null;
  }
}

/**
 * Runs one schedule now and logs it: a `running` row first, then its end, outcome and message.
 * A task that throws is logged as failed; this function itself only throws when the database
 * cannot be written.
 */
export async function runSchedule(
  app: FastifyInstance,
  schedule: Pick<Row<'sysSchedule'>, 'id' | 'task' | 'params'>,
  trigger: RunTrigger,
  now: number,
  plannedAt: number | null = null,
): Promise<Row<'sysScheduleLog'>> {
  const startedAt = Date.now();
  const log = await app.db
    .insertInto('sysScheduleLog')
    .values({
      scheduleId: schedule.id,
      trigger,
      startedAt,
      endedAt: null,
      outcome: 'running',
      message: '',
      instance: app.config.instanceId.slice(0, INSTANCE_MAX),
      plannedAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

  let outcome: 'success' | 'failed';
  let message: string;
  try {
    message = await runTask(schedule.task, JSON.parse(schedule.params), { app, now });
    outcome = 'success';
  } catch (error) {
    outcome = 'failed';
    message = error instanceof Error ? error.message : String(error);
    app.log.warn({ err: error, scheduleId: schedule.id }, 'schedule run failed');
  }
  message = message.slice(0, MESSAGE_MAX);
  const endedAt = Date.now();
  app.metrics.scheduleRuns.inc({ task: schedule.task, trigger, outcome });

  await app.db.updateTable('sysScheduleLog').set({ endedAt, outcome, message }).where('id', '=', log.id).execute();
  // Run results are not staff edits: the version (optimistic lock of the edit dialog) stays.
  await app.db.updateTable('sysSchedule').set({ lastRunAt: startedAt, lastOutcome: outcome, lastMessage: message }).where('id', '=', schedule.id).execute();
  return { ...log, endedAt, outcome, message };
}

/**
 * One tick: claims and runs every schedule due at `now`, one after another. Answers how many runs
 * this instance claimed. Tests call it directly with a chosen clock.
 */
export async function runDue(app: FastifyInstance, now = Date.now()): Promise<number> {
  const due = await app.db
    .selectFrom('sysSchedule')
    .select(['id', 'cron', 'nextRunAt'])
    .where('state', '=', 1)
    .where('nextRunAt', '<=', now)
    .orderBy('nextRunAt')
    .orderBy('id')
    .limit(BATCH_SIZE)
    .execute();

  let claimed = 0;
  for (const candidate of due) {
    // The claim. It is not a version bump: an admin's open edit dialog must not turn stale
    // every time an every-minute job runs; the next-run time alone decides who runs it.
    const schedule = await app.db
      .updateTable('sysSchedule')
      .set({ nextRunAt: followingRun(candidate.cron, now) })
      .where('id', '=', candidate.id)
      .where('state', '=', 1)
      .where('nextRunAt', '=', candidate.nextRunAt)
      .returning(['id', 'task', 'params'])
      .executeTakeFirst();
    if (!schedule) continue;
    claimed += 1;
    await runSchedule(app, schedule, 'cron', now, candidate.nextRunAt);
  }
  return claimed;
}

/** Built-in tasks finish in seconds; a run still `running` after this was cut off by a dying process. */
export const INTERRUPTED_AFTER_MS = 60 * 60_000;
export const INTERRUPTED_MESSAGE = '运行中断：执行期间服务进程退出';

/** Closes the log rows of runs whose process died mid-run, so none stays `running` for good. */
export async function closeInterruptedRuns(app: FastifyInstance, now = Date.now()): Promise<number> {
  const result = await app.db
    .updateTable('sysScheduleLog')
    .set({ outcome: 'failed', endedAt: now, message: INTERRUPTED_MESSAGE })
    .where('outcome', '=', 'running')
    .where('startedAt', '<', now - INTERRUPTED_AFTER_MS)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Ticks every `config.scheduler.tickMs`; a tick that fails is logged and the next one still comes.
 * Starting also closes runs a previous process left unfinished.
 */
export function startScheduler(app: FastifyInstance): Scheduler {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  const tick = async () => {
    try {
      await runDue(app, Date.now());
    } catch (error) {
      app.log.error({ err: error }, 'scheduler tick failed');
    }
  };
  const scheduleTick = () => {
    timer = setTimeout(() => {
      inFlight = tick().then(() => {
        if (!stopped) scheduleTick();
      });
    }, app.config.scheduler.tickMs);
  };
  const closingInterrupted = closeInterruptedRuns(app).catch((error: unknown) => {
    app.log.error({ err: error }, 'closing interrupted schedule runs failed');
    return 0;
  });
  inFlight = closingInterrupted.then(() => undefined);
  scheduleTick();

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
