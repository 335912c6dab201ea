/**
 * Remote commands (重启) over MQTT: a row per command (hotel_device_command), published to
 * `<prefix>/device/<sn>/command` at QoS 1 and acknowledged by the device on `…/command/ack`.
 * Every status change is a conditional UPDATE from 'sent', so with several instances an ack or a
 * timeout takes effect once, and an ack that arrives after the timeout cannot revive a command.
 */
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { DeviceCommandRecord } from '../../../../contract/hotel/device';
import { Code } from '../../../../contract/constants';
import type { Row } from '../../../db/schema';
import { AppError, invalid, notFound } from '../../../lib/errors';
import { currentScope, currentUser, defineRoute, ok } from '../../../lib/route';
import { publishByUnit } from '../../../services/events';
import { scopedDevices } from './presence';

export type CommandRecord = Static<typeof DeviceCommandRecord>;

export const NO_MQTT = '未配置 MQTT，无法下发远程指令';

export const commandTopic = (app: FastifyInstance, sn: string) => `${app.config.mqtt.topicPrefix}/device/${sn}/command`;

const toCommand = (row: Row<'hotelDeviceCommand'>): CommandRecord => ({
  id: row.id,
  deviceId: row.deviceId,
  command: row.command,
  status: row.status,
  sentAt: row.sentAt,
  ackedAt: row.ackedAt,
});

/**
 * These commands, if still 'sent' past the timeout, become 'timed_out' (conditionally, so an ack
 * that came first stands).
 */
async function expireCommands(app: FastifyInstance, ids: number[]): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const now = Date.now();
    const rows = await trx
      .updateTable('hotelDeviceCommand')
      .set({ status: 'timed_out' })
      .where('id', 'in', ids)
      .where('status', '=', 'sent')
      .where('sentAt', '<', now - app.config.mqtt.commandTimeoutMs)
      .returning(['id', 'deviceId'])
      .execute();
    await publishByUnit(
      trx,
      app.dialect,
      rows,
      (row) => row.deviceId,
      (group) => ({ kind: 'command-status', commandIds: group.map((row) => row.id), deviceIds: group.map((row) => row.deviceId), status: 'timed_out', at: now }),
    );
  });
}

/**
 * The latest command of each of these devices (a page's worth: a lookup by id on the main
 * connection). Lazily, when they are read, those still 'sent' past the timeout are written as
 * 'timed_out' and read again: a list page with no overdue command (nearly all of them) writes
 * nothing.
 */
export async function latestCommands(app: FastifyInstance, deviceIds: number[]): Promise<Map<number, CommandRecord>> {
  const latest = new Map<number, CommandRecord>();
  if (deviceIds.length === 0) return latest;
  const read = () =>
    app.db
      .selectFrom('hotelDeviceCommand')
      .selectAll()
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('hotelDeviceCommand')
          .select((inner) => inner.fn.max('id').as('id'))
          .where('deviceId', 'in', deviceIds)
          .groupBy('deviceId'),
      )
      .execute();
  let rows = await read();
  const cutoff = Date.now() - app.config.mqtt.commandTimeoutMs;
  const overdue = rows.filter((row) => row.status === 'sent' && row.sentAt < cutoff).map((row) => row.id);
  if (overdue.length > 0) {
    await expireCommands(app, overdue);
    rows = await read();
  }
  rows.forEach((row) => latest.set(row.deviceId, toCommand(row)));
  return latest;
}

/** The device's answer: acked when still 'sent' and within the timeout; false otherwise (unknown, done or late). */
export async function acknowledgeCommand(app: FastifyInstance, deviceId: number, commandId: number): Promise<boolean> {
  const now = Date.now();
  return app.db.transaction().execute(async (trx) => {
    const acked = await trx
      .updateTable('hotelDeviceCommand')
      .set({ status: 'acked', ackedAt: now })
      .where('id', '=', commandId)
      .where('deviceId', '=', deviceId)
      .where('status', '=', 'sent')
      .where('sentAt', '>=', now - app.config.mqtt.commandTimeoutMs)
      .returning('id')
      .executeTakeFirst();
    if (acked)
      await publishByUnit(
        trx,
        app.dialect,
        [deviceId],
        (id) => id,
        () => ({ kind: 'command-status', commandIds: [commandId], deviceIds: [deviceId], status: 'acked', at: now }),
      );
    return acked !== undefined;
  });
}

export function deviceCommandRoutes(app: FastifyInstance): void {
  defineRoute(app, '/hotel/device/command/reboot', 'resource', async (request) => {
    // A device out of scope is absent, whatever the link's state.
    const device = await scopedDevices(app.db, currentScope(request)).select(['id', 'sn', 'state']).where('id', '=', request.body.id).executeTakeFirst();
    if (!device) throw notFound('设备');
    const link = app.mqtt;
    if (!link) throw invalid(NO_MQTT);
    if (device.state !== 1) throw invalid('设备已停用，无法下发远程指令');
    if (!link.connected) throw new AppError(Code.internal, 'MQTT 服务未连接，暂时无法下发远程指令，请稍后重试');

    // The row first, so the device's ack always finds its command.
    const row = await app.db
      .insertInto('hotelDeviceCommand')
      .values({ deviceId: device.id, command: 'reboot', status: 'sent', sentAt: Date.now(), ackedAt: null, requestedBy: currentUser(request).userId })
      .returningAll()
      .executeTakeFirstOrThrow();
    try {
      await link.publish(commandTopic(app, device.sn), JSON.stringify({ commandId: row.id, command: 'reboot' }));
    } catch (error) {
      // The broker may still deliver it later (then it is acked as usual); otherwise it times out.
      request.log.warn({ err: error, commandId: row.id }, 'mqtt command publish failed');
      throw new AppError(Code.internal, '指令下发失败：MQTT 服务暂时不可用，请稍后重试');
    }
    return ok(toCommand(row), '重启指令已发送，等待设备确认');
  });
}
