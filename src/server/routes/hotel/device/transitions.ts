/**
 * The one place where a device's online/offline change takes effect beyond the flag itself. The
 * write paths (the heartbeat that brings a device back, the offline sweep) detect the flip in the
 * database, exactly once per change, set the flag with `flipTo` (which also stamps online_since /
 * offline_since in that same UPDATE) and hand the flipped devices here. This module decides what the
 * change means: a row per device in hotel_device_transition, the device's 'offline' alarm raised (or,
 * while one is active, repeated) or cleared, and records in the operation log. Everything is
 * set-based, in batches: a sweep may flip a hundred thousand devices at once.
 */
import type { FastifyInstance } from 'fastify';
import { recordAlarmEvents, recordDeviceStatus, type StatusDevice } from '../../../plugins/app/audit';

export type TransitionCause = 'heartbeat' | 'sweep';

export interface DeviceTransitions {
  devices: StatusDevice[];
  /** 1: came online; 0: went offline. */
  to: 0 | 1;
  cause: TransitionCause;
  at: number;
}

/** Who clears an alarm the device's own recovery ended. */
export const SYSTEM_ACTOR = '系统';
export const OFFLINE_ALARM = { type: 'offline', severity: 'major', message: '设备心跳超时，已离线' } as const;
/** Rows per statement: well under both databases' bound-parameter limits (SQLite 32766). */
const BATCH = 1000;

/** The columns a flip sets, in the write path's own UPDATE (no second statement per flip). */
export const flipTo = (to: 0 | 1, at: number) => (to === 1 ? { online: 1, onlineSince: at } : { online: 0, offlineSince: at });

function* batches<T>(items: T[]): Generator<T[]> {
  for (let start = 0; start < items.length; start += BATCH) yield items.slice(start, start + BATCH);
}

export async function applyDeviceTransitions(app: FastifyInstance, { devices, to, cause, at }: DeviceTransitions): Promise<void> {
  if (devices.length === 0) return;
  const byId = new Map(devices.map((device) => [device.id, device]));
  const raised: Array<{ id: number; device: StatusDevice }> = [];
  const cleared: Array<{ id: number; device: StatusDevice }> = [];
  for (const batch of batches(devices)) {
    await app.db
      .insertInto('hotelDeviceTransition')
      .values(batch.map((device) => ({ deviceId: device.id, online: to, at, cause })))
      .execute();
    if (to === 0) {
      // The partial unique index (device_id, type) where cleared_at is null makes a repeat update
      // the active alarm, also when two instances raise it at the same moment.
      const rows = await app.db
        .insertInto('hotelAlarm')
        .values(batch.map((device) => ({ deviceId: device.id, ...OFFLINE_ALARM, startedAt: at, lastAt: at, count: 1 })))
        .onConflict((oc) =>
          oc
            .columns(['deviceId', 'type'])
            .where('clearedAt', 'is', null)
            .doUpdateSet((eb) => ({ count: eb('hotelAlarm.count', '+', 1), lastAt: eb.ref('excluded.lastAt') })),
        )
        .returning(['id', 'deviceId', 'count'])
        .execute();
      for (const row of rows) if (row.count === 1) raised.push({ id: row.id, device: byId.get(row.deviceId)! });
    } else {
      const rows = await app.db
        .updateTable('hotelAlarm')
        .set({ clearedAt: at, clearedBy: SYSTEM_ACTOR })
        .where('type', '=', OFFLINE_ALARM.type)
        .where('clearedAt', 'is', null)
        .where(
          'deviceId',
          'in',
          batch.map((device) => device.id),
        )
        .returning(['id', 'deviceId'])
        .execute();
      for (const row of rows) cleared.push({ id: row.id, device: byId.get(row.deviceId)! });
    }
  }
  await recordDeviceStatus(app, devices, to === 1 ? 0 : 1, to, at);
  await recordAlarmEvents(app, raised, 'raised', at);
  await recordAlarmEvents(app, cleared, 'cleared', at);
}
