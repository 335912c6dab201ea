/**
 * Location alarms (issue 27): a floor's or a building's mass outage is one alarm, 楼层断连 / 楼栋断连,
 * with the devices' own alarms as its symptoms. Its subject is the location (`location_id`); it
 * keeps a device too, a representative one of that location, so that every reader of alarms, which
 * joins on the device (its hotel decides the data scope, its name the list's text), stays correct
 * without a table rebuild. At most one active alarm per location and type: a partial unique index,
 * as for devices, and the way the sweep finds a location's active alarm.
 */
import { sql, type Kysely } from 'kysely';

export const locationAlarms = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('hotel_alarm').addColumn('location_id', 'integer').execute();
    await db.schema
      .createIndex('hotel_alarm_location_active')
      .on('hotel_alarm')
      .columns(['location_id', 'type'])
      .unique()
      .where(sql<boolean>`cleared_at is null and location_id is not null`)
      .execute();
  },
};
