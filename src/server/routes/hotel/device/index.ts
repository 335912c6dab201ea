/**
 * Devices (hotel/device): staff list, create and edit devices and reset a device's key; devices
 * report in through the heartbeat with their own key (never a staff token). The offline side
 * is the `device.offlineSweep` schedule task.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { DEVICE_KEY_HEADER } from '../../../../contract/constants';
import { currentScope, currentUser, defineRoute, ok } from '../../../lib/route';
import { hasOrg, inScope, type DataScope } from '../../../lib/data-scope';
import { conflict, forbidden, invalid, notFound, unauthorized } from '../../../lib/errors';
import {
  defaultOrder,
  countUpTo,
  fetchCappedPage,
  fetchMatchedPage,
  given,
  idsUpTo,
  inOrder,
  knownCount,
  listOrder,
  ordered,
  type ListOrder,
  type SortColumn,
} from '../../../lib/list-query';
import { idIn, idInSubquery } from '../../../lib/id-list';
import { listSearch } from '../../../lib/text-search';
import { uniquely } from '../../../lib/conflicts';
import { valueTaken, versionedEdit } from '../../../lib/versioned-edit';
import { sendXlsx } from '../../../lib/xlsx';
import { formatTime } from '../../../../contract/time';
import type { BodyOf } from '../../../../contract';
import type { DEVICE_SORT_KEYS } from '../../../../contract/hotel/device';
import { viewLabels } from '../../../services/dictionary-labels';
import { hashDeviceKey, issueDeviceKey } from './device-key';
import { acceptHeartbeat } from './heartbeat';
import { acceptGatewayMessage } from './gateway';
import { GATEWAY_TYPE } from '../../../services/device-status/offline-sweep';
import { assertKnownDeviceType } from '../../../services/device-types';
import { deviceImportRoutes } from './import';
import { deviceCommandRoutes, latestCommands } from './commands';
import { deviceMqttRoutes } from './mqtt';
import { assertLocation, hotelOfLocation, inLocationSubtree, LocationIndex } from '../../../services/location-paths';
import {
  deviceIdsUnitByUnit,
  deviceWithPresence,
  devicesJoinedToPresence,
  devicesWithPresence,
  DEVICE_SCOPE,
  liveDeviceCount,
  PRESENCE_COLUMNS,
  scopedDevices,
  setOfflineWhenDisabled,
  type DeviceWithPresence,
} from './presence';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { deviceAuditTarget } from './audit-target';
import { checkEach } from '../../../lib/batch';
import { assertHoldsPath } from '../../../services/grants';

const SAVED = '保存成功';
const SN_TAKEN = '序列号已存在';
/** One message for an unknown serial number and a wrong key, so a caller cannot probe for devices. */
const AUTH_FAILED = '设备认证失败';

type DeviceFilters = NonNullable<BodyOf<'/hotel/device/inquire'>['params']>;
type DeviceSort = BodyOf<'/hotel/device/inquire'>['sort'];
/** The sort keys of the device list (contract DEVICE_SORT_KEYS) and the columns they order by. */
// Qualified: a search joins the FTS table, which has name and sn columns too.
const DEVICE_SORT: Record<(typeof DEVICE_SORT_KEYS)[number], SortColumn> = {
  name: 'hotelDevice.name',
  sn: 'hotelDevice.sn',
  type: 'hotelDevice.type',
  state: 'hotelDevice.state',
  online: 'hotelDevicePresence.online',
  lastSeenAt: { column: 'hotelDevicePresence.lastSeenAt', nullable: true },
  createdAt: 'hotelDevice.createdAt',
};
const ID = 'hotelDevice.id';
/** The list's order, its id taken from `idColumn` (the search's, which may be the FTS rowid). */
const deviceOrder = (sort: DeviceSort, idColumn = ID) => listOrder(sort, DEVICE_SORT, defaultOrder(['id', idColumn]), idColumn);

/** Does this order read the presence table (so the ids query must join it)? */
const readsPresence = (order: ListOrder) => order.some((step) => step.column.startsWith('hotelDevicePresence.'));

/** The columns the device form sets, on creation and on edit alike. */
const formColumns = (body: BodyOf<'/hotel/device/creation'>) => ({
  name: body.name,
  sn: body.sn,
  type: body.type,
  locationId: body.locationId,
  state: body.state,
  remark: body.remark,
});

/**
 * A device's gateway: a device of type 网关 in the caller's scope (else it answers as a missing
 * gateway would), of the device's own hotel, not the device itself, and one level only (a gateway
 * has no gateway; a device that carries children cannot be put behind one), so "behind a gateway
 * that is down" never needs a walk up a chain.
 */
async function assertGateway(db: Kysely<Database>, scope: DataScope, gatewayId: number | null, device: { id: number | null; orgId: number | null }): Promise<void> {
  if (gatewayId === null) return;
  if (gatewayId === device.id) throw invalid('设备不能以自己为网关');
  const gateway = await scopedDevices(db, scope)
    .select(['hotelDevice.type', 'hotelDevice.orgId', 'hotelDevice.gatewayId'])
    .where('hotelDevice.id', '=', gatewayId)
    .executeTakeFirst();
  if (!gateway) throw notFound('所属网关');
  if (gateway.type !== GATEWAY_TYPE) throw invalid('所属网关必须是类型为“网关”的设备');
  if (gateway.gatewayId !== null) throw invalid('所属网关自身挂在另一个网关下，网关只能有一级');
  if (gateway.orgId !== device.orgId) throw invalid('所属网关与设备不属于同一酒店');
  if (device.id !== null) {
    const child = await db.selectFrom('hotelDevice').select('id').where('gatewayId', '=', device.id).where('deletedAt', 'is', null).limit(1).executeTakeFirst();
    if (child) throw invalid('该设备是其他设备的网关，不能再挂到网关下');
  }
}

/**
 * The hotel a device goes to: the one asked for, else its location's, else the caller's own unit.
 * A location belongs to one hotel, so both must agree; outside the caller's scope it answers as a
 * missing unit would.
 */
async function deviceHotel(db: Kysely<Database>, scope: DataScope, asked: number | null, locationId: number | null, fallback: number | null): Promise<number | null> {
  const ofLocation = await hotelOfLocation(db, locationId);
  if (asked !== null && ofLocation !== null && asked !== ofLocation) throw invalid('设备的位置不属于所选酒店');
  const orgId = asked ?? ofLocation ?? fallback;
  if (orgId !== null && !hasOrg(scope, orgId)) throw notFound('所属酒店');
  if (orgId === null && scope.kind !== 'all') throw notFound('所属酒店');
  return orgId;
}

/** The answer never carries the key hash. */
const toRecord = (row: DeviceWithPresence, locations: LocationIndex) => ({
  id: row.id,
  name: row.name,
  sn: row.sn,
  type: row.type,
  locationId: row.locationId,
  locationPath: locations.pathOf(row.locationId),
  orgId: row.orgId,
  gatewayId: row.gatewayId,
  state: row.state,
  online: row.online,
  lastSeenAt: row.lastSeenAt,
  onlineSince: row.onlineSince,
  offlineSince: row.offlineSince,
  remark: row.remark,
  version: row.version,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export function deviceRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.audit.targets.register('device', deviceAuditTarget);
  const snTaken = (sn: string) => valueTaken(app.db, 'hotelDevice', 'sn', sn);
  /** A device just written, as the answer shows it (a device deleted meanwhile is a 404). */
  const storedRecord = async (scope: DataScope, id: number) => {
    const device = await deviceWithPresence(app.db, scope, id);
    if (!device) throw notFound('设备');
    return toRecord(device, await LocationIndex.of(app.db, [device.locationId]));
  };

  /**
   * The devices the filters select, and the order their search needs (see listSearch). Read from
   * `app.reads` (reader threads on SQLite): a broad search never holds the heartbeats.
   */
  const filteredDevices = (scope: DataScope, filters: DeviceFilters, sort: DeviceSort, { withPresence = false } = {}) => {
    const search = listSearch(app.dialect, 'hotel_device', ID, [
      { column: 'name', ref: sql.ref('hotelDevice.name'), text: filters.name },
      { column: 'sn', ref: sql.ref('hotelDevice.sn'), text: filters.sn },
    ]);
    const order = deviceOrder(sort, search.idColumn);
    const devices = scopedDevices(app.reads, scope);
    const joined = devicesJoinedToPresence(app.reads, scope);
    // The presence table is joined only when a filter, the order or the caller reads it: a deep
    // page by number then skips entries of hotel_device's own index, not a presence row per device
    // skipped. (Typed as joined either way; nothing below names a presence column unless joined.)
    const presence = withPresence || filters.online !== undefined || readsPresence(order);
    let query = search.apply(presence ? joined : (devices as unknown as typeof joined));
    if (filters.locationId !== undefined) query = query.where(inLocationSubtree(sql.ref('hotelDevice.locationId'), filters.locationId));
    if (given(filters.type)) query = query.where('hotelDevice.type', '=', filters.type.trim());
    if (filters.state !== undefined) query = query.where('hotelDevice.state', '=', filters.state);
    if (filters.online !== undefined) query = query.where('hotelDevicePresence.online', '=', filters.online);
    // The whole list of the scope in its own order, which deviceIdsUnitByUnit can read unit by unit.
    const plain = !search.searching && !presence && filters.locationId === undefined && !given(filters.type) && filters.state === undefined && sort === undefined;
    return { query, order, searching: search.searching, plain };
  };

  defineRoute(app, '/hotel/device/inquire', 'resource', async (request) => {
    const scope = currentScope(request);
    const { query, order, searching, plain } = filteredDevices(scope, request.body.params ?? {}, request.body.sort);
    const deviceRows = () => devicesWithPresence(app.reads, scope);
    const ids = query.select(ID);
    // The whole list's total is the sum of its units' live counts: nothing to count device by device.
    // A read of a few rows by key, on the main connection as the page's lookups below (not queued
    // behind other staff's searches on the list reads' connections).
    const total = plain ? await liveDeviceCount(app.db, scope) : null;
    const capped = () =>
      fetchCappedPage(
        request.body,
        total === null ? countUpTo(app.reads, ids) : knownCount(total),
        // The page's ids first, from an index alone; then only those rows are read, so a deep page
        // skips index entries rather than whole rows.
        (limit, offset, seek) =>
          ordered(
            deviceRows().where(
              idInSubquery(
                app.dialect,
                ID,
                (plain ? deviceIdsUnitByUnit(app.reads, scope, limit, offset, seek) : null) ??
                  ordered(query.$if(seek !== null, (q) => q.where(seek!)).select(ID), order)
                    .limit(limit)
                    .offset(offset),
              ),
            ),
            deviceOrder(request.body.sort),
          ).execute(),
        { order, rowById: (id) => deviceWithPresence(app.reads, scope, id) },
      );
    const page = searching
      ? await fetchMatchedPage(
          request.body,
          {
            ids: idsUpTo(app.reads, ids),
            rows: (matched, limit, offset) =>
              ordered(deviceRows().where(idIn(app.dialect, ID, matched)), deviceOrder(request.body.sort))
                .limit(limit)
                .offset(offset)
                .execute(),
          },
          capped,
        )
      : await capped();
    // The page's own few lookups by id (its rows' locations and last commands) run on the main
    // connection, as a session check does: on the list reads' pool (PostgreSQL: two connections)
    // or reader thread they would queue behind other staff's searches and take two of the page's
    // four turns there.
    const locations = await LocationIndex.of(
      app.db,
      page.records.map((row) => row.locationId),
    );
    const commands = await latestCommands(
      app,
      page.records.map((row) => row.id),
    );
    return ok({ ...page, records: page.records.map((row) => ({ ...toRecord(row, locations), lastCommand: commands.get(row.id) ?? null })) });
  });

  defineRoute(app, '/hotel/device/export', 'resource', async (request, reply) => {
    const { params = {}, sort } = request.body;
    const labels = await viewLabels(app.db, 'hotel/device');
    const locations = await LocationIndex.load(app.db);
    const { query, order } = filteredDevices(currentScope(request), params, sort, { withPresence: true });
    return sendXlsx(reply, {
      fileName: '设备列表',
      sheetName: '设备',
      columns: [
        { header: '设备名称', value: (device) => device.name },
        { header: '序列号', width: 24, value: (device) => device.sn },
        { header: '设备类型', value: (device) => labels.labelOf('type', device.type) },
        { header: '位置', width: 20, value: (device) => locations.pathOf(device.locationId) },
        { header: '状态', width: 10, value: (device) => labels.labelOf('state', device.state) },
        { header: '在线', width: 10, value: (device) => labels.labelOf('online', device.online) },
        { header: '最后上报', width: 20, value: (device) => formatTime(device.lastSeenAt) },
        { header: '备注', width: 30, value: (device) => device.remark },
      ],
      rows: inOrder(order, (seek, limit) =>
        ordered(
          query
            .$if(seek !== null, (q) => q.where(seek!))
            .selectAll('hotelDevice')
            .select(PRESENCE_COLUMNS),
          order,
        )
          .limit(limit)
          .execute(),
      ),
    });
  });

  deviceImportRoutes(app);
  deviceCommandRoutes(app);
  deviceMqttRoutes(app);

  defineRoute(app, '/hotel/device/creation', 'resource', async (request) => {
    const body = request.body;
    const scope = currentScope(request);
    const me = currentUser(request);
    await assertKnownDeviceType(app.db, body.type);
    await assertLocation(app.db, body.locationId);
    const orgId = await deviceHotel(app.db, scope, body.orgId, body.locationId, me.orgId);
    const gatewayId = body.gatewayId ?? null;
    await assertGateway(app.db, scope, gatewayId, { id: null, orgId });
    if (await snTaken(body.sn)) throw conflict(SN_TAKEN);
    const deviceKey = issueDeviceKey();
    const now = Date.now();
    const row = await uniquely(
      () =>
        app.db
          .insertInto('hotelDevice')
          .values({ ...formColumns(body), orgId, gatewayId, createdBy: me.userId, keyHash: hashDeviceKey(deviceKey), createdAt: now, updatedAt: now })
          .returning('id')
          .executeTakeFirstOrThrow(),
      SN_TAKEN,
    );
    return ok({ device: await storedRecord(scope, row.id), deviceKey }, SAVED);
  });

  defineRoute(app, '/hotel/device/edit', 'resource', async (request) => {
    const body = request.body;
    const scope = currentScope(request);
    // The edit and, for a device it disables, its presence: one transaction.
    const edited = await app.db.transaction().execute(async (trx) => {
      const device = await scopedDevices(trx, scope).select(['hotelDevice.orgId', 'hotelDevice.gatewayId']).where('hotelDevice.id', '=', body.id).executeTakeFirst();
      if (!device) throw notFound('设备');
      // Without a hotel asked for, a device keeps its own unless its new location names another.
      const orgId = await deviceHotel(trx, scope, body.orgId, body.locationId, device.orgId);
      // Left out, the device keeps its gateway, which must still fit (its hotel may have changed).
      const gatewayId = body.gatewayId === undefined ? device.gatewayId : body.gatewayId;
      await assertGateway(trx, scope, gatewayId, { id: body.id, orgId });
      const row = await versionedEdit(trx, {
        table: 'hotelDevice',
        edit: body,
        noun: '设备',
        unique: { column: 'sn', value: body.sn, message: SN_TAKEN },
        // A type since disabled in the dictionary may stay on a device that already has it. (Read
        // in the transaction: on SQLite its one connection is the transaction's until it ends.)
        check: async (current) => {
          if (body.type !== current.type) await assertKnownDeviceType(trx, body.type);
          if (body.locationId !== current.locationId) await assertLocation(trx, body.locationId);
        },
        changes: () => ({ ...formColumns(body), orgId, gatewayId }),
      });
      if (body.state !== 1) await setOfflineWhenDisabled(trx, row.id);
      return row;
    });
    return ok(await storedRecord(scope, edited.id), SAVED);
  });

  defineRoute(app, '/hotel/device/batch/state', 'resource', async (request) => {
    await assertHoldsPath(app.db, currentUser(request), '/hotel/device/edit');
    const scope = currentScope(request);
    const { ids, state } = request.body;
    // As the edit does: the rows and, for devices it disables, their presence in one transaction.
    await app.db.transaction().execute(async (trx) => {
      await checkEach(ids, async (id) => {
        if (!(await scopedDevices(trx, scope).select('hotelDevice.id').where('hotelDevice.id', '=', id).executeTakeFirst())) throw notFound('设备');
      });
      await trx
        .updateTable('hotelDevice')
        .set((eb) => ({ state, updatedAt: Date.now(), version: eb('version', '+', 1) }))
        .where('id', 'in', ids)
        .execute();
      if (state !== 1) for (const id of ids) await setOfflineWhenDisabled(trx, id);
    });
    return ok({ count: ids.length }, `已${state === 1 ? '启用' : '禁用'} ${ids.length} 台设备`);
  });

  defineRoute(app, '/hotel/device/removal', 'resource', async (request) => {
    const { id } = request.body;
    const scope = currentScope(request);
    const userName = currentUser(request).userName;
    await app.db.transaction().execute(async (trx) => {
      const device = await scopedDevices(trx, scope).select('hotelDevice.id').where('hotelDevice.id', '=', id).executeTakeFirst();
      if (!device) throw notFound('设备');
      // A gateway's children would keep a dead gateway and its alarm would hide their symptoms.
      const child = await trx.selectFrom('hotelDevice').select('id').where('gatewayId', '=', id).where('deletedAt', 'is', null).limit(1).executeTakeFirst();
      if (child) throw conflict('该网关下仍有设备，请先删除这些设备或改挂到其他网关');
      // The row stays for its history; an empty hash matches no key, so the key stops working now.
      await trx
        .updateTable('hotelDevice')
        .set((eb) => ({ deletedAt: Date.now(), keyHash: '', updatedAt: Date.now(), version: eb('version', '+', 1) }))
        .where('id', '=', id)
        .execute();
      // Without its presence it is out of the sweeps and the heartbeat lookup.
      await trx.deleteFrom('hotelDevicePresence').where('id', '=', id).execute();
      // Its own alarms end with it; a floor's or building's alarm it only stands for stays with its location.
      await trx
        .updateTable('hotelAlarm')
        .set({ clearedAt: Date.now(), clearedBy: userName })
        .where('deviceId', '=', id)
        .where('locationId', 'is', null)
        .where('clearedAt', 'is', null)
        .execute();
    });
    return ok(null, '设备已删除，其状态记录、告警和操作日志仍可查阅');
  });

  defineRoute(app, '/hotel/device/key/reset', 'resource', async (request) => {
    const deviceKey = issueDeviceKey();
    const scope = currentScope(request);
    // The key is not an edit of the form's fields: the version (the edit dialog's lock) stays.
    const row = await app.db
      .updateTable('hotelDevice')
      .set({ keyHash: hashDeviceKey(deviceKey), updatedAt: Date.now() })
      .where('id', '=', request.body.id)
      .where('deletedAt', 'is', null)
      .$call(inScope(scope, DEVICE_SCOPE))
      .returning('id')
      .executeTakeFirst();
    if (!row) throw notFound('设备');
    return ok({ device: await storedRecord(scope, row.id), deviceKey }, '设备密钥已重置，旧密钥立即失效；新密钥只显示这一次');
  });

  defineRoute(app, '/hotel/device/heartbeat', 'public', async (request) => {
    const header = request.headers[DEVICE_KEY_HEADER];
    const result = await acceptHeartbeat(app, { sn: request.body.sn, key: typeof header === 'string' ? header : '', transport: 'http' });
    if (result.outcome === 'unauthenticated') throw unauthorized(AUTH_FAILED);
    // Only a caller holding the device's key learns that it is disabled.
    if (result.outcome === 'disabled') throw forbidden('设备已停用，请联系管理员');
    return ok({ serverTime: result.serverTime }, '心跳已接收');
  });

  defineRoute(app, '/hotel/device/gateway/heartbeat', 'public', async (request) => {
    const header = request.headers[DEVICE_KEY_HEADER];
    const { sn, devices } = request.body;
    const result = await acceptGatewayMessage(app, { sn, key: typeof header === 'string' ? header : '', kind: 'heartbeat', children: devices, transport: 'http' });
    if (result.outcome === 'unauthenticated') throw unauthorized(AUTH_FAILED);
    if (result.outcome === 'disabled') throw forbidden('设备已停用，请联系管理员');
    if (result.outcome === 'notGateway') throw invalid('该设备不是网关');
    return ok({ serverTime: result.serverTime, accepted: result.accepted, ignored: result.ignored }, '心跳已接收');
  });
  done();
}
