/**
 * The planned time of each cron run next to its start: with several instances sharing one
 * database, "each due run exactly once" is checkable as one log row per schedule and planned time
 * (a manual run has none).
 */
import type { Kysely } from 'kysely';

export const schedulePlannedAt = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('sys_schedule_log').addColumn('planned_at', 'bigint').execute();
    await db.schema.createIndex('sys_schedule_log_planned').on('sys_schedule_log').columns(['schedule_id', 'planned_at']).execute();
  },
};
