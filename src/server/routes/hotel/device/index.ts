/**
 * Devices (hotel/device): staff list, create and edit devices and reset a device's key; devices
 * report in through the heartbeat with their own key (never a staff token). The offline side
 * is the `device.offlineSweep` schedule task.
 */
import type { FastifyInstance } from 'fastify';
import { DEVICE_KEY_HEADER } from '../../../../contract/constants';
import type { Row } from '../../../db/schema';
import { defineRoute, ok } from '../../../lib/route';
import { conflict, forbidden, notFound, unauthorized } from '../../../lib/errors';
import { contains, defaultOrder, fetchPage, given, inOrder, listOrder, ordered, type SortColumn } from '../../../lib/list-query';
import { uniquely } from '../../../lib/conflicts';
import { valueTaken, versionedEdit } from '../../../lib/versioned-edit';
import { sendXlsx } from '../../../lib/xlsx';
import { timeText } from '../../../lib/list-export';
import type { BodyOf } from '../../../../contract';
import type { DEVICE_SORT_KEYS } from '../../../../contract/hotel/device';
import { viewLabels } from '../../sys/dict/menu-dictionary';
import { deviceKeyMatches, hashDeviceKey, issueDeviceKey } from './device-key';
import { applyDeviceTransitions } from './transitions';
import { assertKnownDeviceType } from './device-type';
import { deviceImportRoutes } from './import';
import { assertLocation, LocationIndex } from '../location/paths';

const SAVED = '保存成功';
const SN_TAKEN = '序列号已存在';
/** One message for an unknown serial number and a wrong key, so a caller cannot probe for devices. */
const AUTH_FAILED = '设备认证失败';

type DeviceFilters = NonNullable<BodyOf<'/hotel/device/inquire'>['params']>;
/** The sort keys of the device list (contract DEVICE_SORT_KEYS) and the columns they order by. */
const DEVICE_SORT: Record<(typeof DEVICE_SORT_KEYS)[number], SortColumn> = {
  name: 'name',
  sn: 'sn',
  type: 'type',
  roomNo: 'roomNo',
  state: 'state',
  online: 'online',
  lastSeenAt: { column: 'lastSeenAt', nullable: true },
  createdAt: 'createdAt',
};
const DEVICE_ORDER = defaultOrder(['id', 'id']);

/** The answer never carries the key hash. */
const toRecord = (row: Row<'hotelDevice'>, locations: LocationIndex) => ({
  id: row.id,
  name: row.name,
  sn: row.sn,
  type: row.type,
  roomNo: row.roomNo,
  locationId: row.locationId,
  locationPath: locations.pathOf(row.locationId),
  state: row.state,
  online: row.online,
  lastSeenAt: row.lastSeenAt,
  remark: row.remark,
  version: row.version,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export async function deviceRoutes(app: FastifyInstance): Promise<void> {
  const snTaken = (sn: string) => valueTaken(app.db, 'hotelDevice', 'sn', sn);
  const assertDeviceType = (type: string) => assertKnownDeviceType(app.db, type);

  const filteredDevices = (filters: DeviceFilters, locations: LocationIndex) => {
    let query = app.db.selectFrom('hotelDevice');
    if (filters.locationId !== undefined) query = query.where('locationId', 'in', locations.subtree(filters.locationId));
    if (given(filters.name)) query = query.where((eb) => contains(eb.ref('name'), filters.name!));
    if (given(filters.sn)) query = query.where((eb) => contains(eb.ref('sn'), filters.sn!));
    if (given(filters.type)) query = query.where('type', '=', filters.type.trim());
    if (given(filters.roomNo)) query = query.where('roomNo', '=', filters.roomNo.trim());
    if (filters.state !== undefined) query = query.where('state', '=', filters.state);
    if (filters.online !== undefined) query = query.where('online', '=', filters.online);
    return query;
  };

  defineRoute(app, '/hotel/device/inquire', 'resource', async (request) => {
    const locations = await LocationIndex.load(app.db);
    const query = filteredDevices(request.body.params ?? {}, locations);
    const order = listOrder(request.body.sort, DEVICE_SORT, DEVICE_ORDER);
    const page = await fetchPage(
      request.body,
      () => query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      (limit, offset) => ordered(query.selectAll(), order).limit(limit).offset(offset).execute(),
    );
    return ok({ ...page, records: page.records.map((row) => toRecord(row, locations)) });
  });

  defineRoute(app, '/hotel/device/export', 'resource', async (request, reply) => {
    const { params = {}, sort } = request.body;
    const labels = await viewLabels(app.db, 'hotel/device');
    const locations = await LocationIndex.load(app.db);
    const order = listOrder(sort, DEVICE_SORT, DEVICE_ORDER);
    return sendXlsx(reply, {
      fileName: '设备列表',
      sheetName: '设备',
      columns: [
        { header: '设备名称', value: (device) => device.name },
        { header: '序列号', width: 24, value: (device) => device.sn },
        { header: '设备类型', value: (device) => labels.labelOf('type', device.type) },
        { header: '房间号', width: 10, value: (device) => device.roomNo },
        { header: '位置', width: 20, value: (device) => locations.pathOf(device.locationId) },
        { header: '状态', width: 10, value: (device) => labels.labelOf('state', device.state) },
        { header: '在线', width: 10, value: (device) => labels.labelOf('online', device.online) },
        { header: '最后上报', width: 20, value: (device) => timeText(device.lastSeenAt) },
        { header: '备注', width: 30, value: (device) => device.remark },
      ],
      rows: inOrder(order, (seek, limit) =>
        ordered(filteredDevices(params, locations).$if(seek !== null, (q) => q.where(seek!)).selectAll(), order)
          .limit(limit)
          .execute(),
      ),
    });
  });

  await deviceImportRoutes(app);

  defineRoute(app, '/hotel/device/creation', 'resource', async (request) => {
    const body = request.body;
    await assertDeviceType(body.type);
    await assertLocation(app.db, body.locationId);
    if (await snTaken(body.sn)) throw conflict(SN_TAKEN);
    const deviceKey = issueDeviceKey();
    const now = Date.now();
    const row = await uniquely(
      () =>
        app.db
          .insertInto('hotelDevice')
          .values({
            name: body.name,
            sn: body.sn,
            type: body.type,
            roomNo: body.roomNo,
            locationId: body.locationId,
            state: body.state,
            online: 0,
            lastSeenAt: null,
            keyHash: hashDeviceKey(deviceKey),
            remark: body.remark,
            createdAt: now,
            updatedAt: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      SN_TAKEN,
    );
    return ok({ device: toRecord(row, await LocationIndex.load(app.db)), deviceKey }, SAVED);
  });

  defineRoute(app, '/hotel/device/edit', 'resource', async (request) => {
    const body = request.body;
    const row = await versionedEdit(app.db, {
      table: 'hotelDevice',
      edit: body,
      noun: '设备',
      unique: { column: 'sn', value: body.sn, message: SN_TAKEN },
      // A type since disabled in the dictionary may stay on a device that already has it.
      check: async (current) => {
        if (body.type !== current.type) await assertDeviceType(body.type);
        if (body.locationId !== current.locationId) await assertLocation(app.db, body.locationId);
      },
      changes: () => ({
        name: body.name,
        sn: body.sn,
        type: body.type,
        roomNo: body.roomNo,
        locationId: body.locationId,
        state: body.state,
        // A disabled device's heartbeats are refused, so it is offline from now on.
        ...(body.state !== 1 ? { online: 0 } : {}),
        remark: body.remark,
      }),
    });
    return ok(toRecord(row, await LocationIndex.load(app.db)), SAVED);
  });

  defineRoute(app, '/hotel/device/key/reset', 'resource', async (request) => {
    const deviceKey = issueDeviceKey();
    // The key is not an edit of the form's fields: the version (the edit dialog's lock) stays.
    const row = await app.db
      .updateTable('hotelDevice')
      .set({ keyHash: hashDeviceKey(deviceKey), updatedAt: Date.now() })
      .where('id', '=', request.body.id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound('设备');
    return ok({ device: toRecord(row, await LocationIndex.load(app.db)), deviceKey }, '设备密钥已重置，旧密钥立即失效；新密钥只显示这一次');
  });

  defineRoute(app, '/hotel/device/heartbeat', 'public', async (request) => {
    const header = request.headers[DEVICE_KEY_HEADER];
    const key = typeof header === 'string' ? header : '';
    const device = await app.db.selectFrom('hotelDevice').select(['id', 'name', 'sn', 'state', 'online', 'keyHash']).where('sn', '=', request.body.sn).executeTakeFirst();
    const keyMatches = deviceKeyMatches(key, device?.keyHash);
    if (!device || !keyMatches || device.state !== 1) app.metrics.heartbeats.inc({ transport: 'http', outcome: 'refused' });
    if (!device || !keyMatches) throw unauthorized(AUTH_FAILED);
    // Only a caller holding the device's key learns that it is disabled.
    if (device.state !== 1) throw forbidden('设备已停用，请联系管理员');
    app.metrics.heartbeats.inc({ transport: 'http', outcome: 'accepted' });
    const now = Date.now();
    // Status, not an edit: the version stays, so heartbeats never make an open edit dialog stale.
    if (device.online === 1) {
      await app.db.updateTable('hotelDevice').set({ lastSeenAt: now, online: 1 }).where('id', '=', device.id).execute();
    } else {
      // Coming back online is a status change, recorded once: by the heartbeat that flips the flag.
      const flipped = await app.db.updateTable('hotelDevice').set({ lastSeenAt: now, online: 1 }).where('id', '=', device.id).where('online', '=', 0).executeTakeFirst();
      if (Number(flipped.numUpdatedRows) === 1) await applyDeviceTransitions(app, { devices: [device], to: 1, cause: 'heartbeat', at: now });
    }
    return ok({ serverTime: now }, '心跳已接收');
  });
}
