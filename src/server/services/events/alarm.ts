/**
 * The one call an alarm's raise or clear makes, in its transaction: the notification rules hear of
 * it (messages queued) and the live stream's outbox gets its event.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { Dialect } from '../../db/dialect';
import { notifyAlarmEvent, type AlarmEvent } from '../notification/alarm-events';
import { publishEvent } from './outbox';

export async function announceAlarmEvent(db: Kysely<Database> | Transaction<Database>, dialect: Dialect, event: AlarmEvent, by = '系统'): Promise<void> {
  await notifyAlarmEvent(db, dialect, event);
  if (event.event === 'raise') {
    if (event.deviceIds.length > 0) await publishEvent(db, dialect, { kind: 'alarm-raised', type: event.type, deviceIds: event.deviceIds, at: event.at });
  } else if (event.alarmIds.length > 0) {
    await publishEvent(db, dialect, { kind: 'alarm-cleared', alarmIds: event.alarmIds, by, at: event.at });
  }
}
