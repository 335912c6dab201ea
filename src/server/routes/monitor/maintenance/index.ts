/**
 * Maintenance windows (monitor/maintenance): a location subtree, or the whole hotel, silenced for a
 * period. Alarms raised there are still recorded; no message is sent about them
 * (services/notification/alarm-events.ts). docs/api/monitor.md.
 */
import type { FastifyInstance } from 'fastify';
import type { BodyOf } from '../../../../contract';
import { defineRoute, ok } from '../../../lib/route';
import { conflict, invalid, notFound } from '../../../lib/errors';
import { fetchPage, contains, given } from '../../../lib/list-query';
import { valueTaken, versionedEdit } from '../../../lib/versioned-edit';
import { assertLocation } from '../../../services/location-paths';
import { findMaintenanceRecord, toMaintenanceRecords } from './repository';
import { maintenanceAuditTarget } from './audit-target';

const SAVED = '保存成功';
const NAME_TAKEN = '维护名称已存在';

const columnsOf = (body: BodyOf<'/monitor/maintenance/creation'>) => {
  if (body.endsAt <= body.startsAt) throw invalid('结束时间须晚于开始时间');
  return { name: body.name, locationId: body.locationId, startsAt: body.startsAt, endsAt: body.endsAt, state: body.state, remark: body.remark };
};

export function maintenanceRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.audit.targets.register('maintenance', maintenanceAuditTarget);
  defineRoute(app, '/monitor/maintenance/inquire', 'resource', async (request) => {
    const filters = request.body.params ?? {};
    let query = app.db.selectFrom('notifyMaintenance');
    if (given(filters.name)) query = query.where((eb) => contains(eb.ref('name'), filters.name!));
    if (filters.state !== undefined) query = query.where('state', '=', filters.state);
    const page = await fetchPage(
      request.body,
      () => query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      (limit, offset) => query.selectAll().orderBy('startsAt', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    );
    return ok({ ...page, records: await toMaintenanceRecords(app.db, page.records) });
  });

  defineRoute(app, '/monitor/maintenance/creation', 'resource', async (request) => {
    const columns = columnsOf(request.body);
    await assertLocation(app.db, columns.locationId);
    if (await valueTaken(app.db, 'notifyMaintenance', 'name', columns.name)) throw conflict(NAME_TAKEN);
    const now = Date.now();
    const created = await app.db
      .insertInto('notifyMaintenance')
      .values({ ...columns, createdAt: now, updatedAt: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return ok((await findMaintenanceRecord(app.db, created.id))!, SAVED);
  });

  defineRoute(app, '/monitor/maintenance/edit', 'resource', async (request) => {
    const body = request.body;
    const columns = columnsOf(body);
    const row = await versionedEdit(app.db, {
      table: 'notifyMaintenance',
      edit: body,
      noun: '维护窗口',
      unique: { column: 'name', value: body.name, message: NAME_TAKEN },
      check: () => assertLocation(app.db, columns.locationId),
      changes: () => columns,
    });
    return ok((await findMaintenanceRecord(app.db, row.id))!, SAVED);
  });

  defineRoute(app, '/monitor/maintenance/removal', 'resource', async (request) => {
    const removed = await app.db.deleteFrom('notifyMaintenance').where('id', '=', request.body.id).executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) throw notFound('维护窗口');
    return ok(null, '删除成功');
  });
  done();
}
