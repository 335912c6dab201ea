/**
 * The one call an alarm's raise or clear makes, in its transaction: the notification rules hear of
 * it (messages queued) and the live stream's outbox gets its event.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { Dialect } from '../../db/dialect';
import { notifyAlarmEvent, type AlarmEvent } from '../notification/alarm-events';
import { devicesOfAlarms, publishByUnit } from './outbox';

/** `units`: the raised alarms' devices' organisation units, where the caller has already read them. */
export async function announceAlarmEvent(
  db: Kysely<Database> | Transaction<Database>,
  dialect: Dialect,
  event: AlarmEvent,
  by = '系统',
  units?: ReadonlyMap<number, number | null>,
): Promise<void> {
  await notifyAlarmEvent(db, dialect, event);
  if (event.event === 'raise') {
    await publishByUnit(
      db,
      dialect,
      event.deviceIds,
      (id) => id,
      (deviceIds) => ({ kind: 'alarm-raised', type: event.type, deviceIds, at: event.at }),
      units,
    );
  } else if (event.event === 'promote') {
    const deviceOf = await devicesOfAlarms(db, dialect, event.alarmIds);
    await publishByUnit(
      db,
      dialect,
      [...new Set(deviceOf.values())],
      (id) => id,
      (deviceIds) => ({ kind: 'alarm-raised', type: event.type, deviceIds, at: event.at }),
    );
  } else {
    const deviceOf = await devicesOfAlarms(db, dialect, event.alarmIds);
    await publishByUnit(
      db,
      dialect,
      event.alarmIds,
      (id) => deviceOf.get(id) ?? 0,
      (alarmIds) => ({ kind: 'alarm-cleared', alarmIds, by, at: event.at }),
    );
  }
}
