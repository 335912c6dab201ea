/**
 * The note a person may leave when acknowledging an alarm (issue 25): stored on the alarm, shown in
 * its detail and the device's alarm history. Existing alarms have none.
 */
import type { Kysely } from 'kysely';

export const alarmAcknowledgeNote = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('hotel_alarm')
      .addColumn('acknowledge_note', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .execute();
  },
};
