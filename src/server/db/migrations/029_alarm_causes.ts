/**
 * Causes and symptoms (issue 27): an alarm raised because of another (a device unreachable behind
 * its gateway that is offline) names that alarm in `cause_id`; null marks a cause. The alarm list
 * and the counts show causes, each with its symptoms folded under it; a cause's symptoms are found
 * through the partial index. A device behind a gateway that is down is recorded in its status
 * history as unreachable (hotel_device_transition.cause 'unreachable'), which needs no column.
 */
import { sql, type Kysely } from 'kysely';

export const alarmCauses = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('hotel_alarm').addColumn('cause_id', 'bigint').execute();
    await db.schema.createIndex('hotel_alarm_cause').on('hotel_alarm').columns(['cause_id', 'id']).where(sql.ref('cause_id'), 'is not', null).execute();
  },
};
