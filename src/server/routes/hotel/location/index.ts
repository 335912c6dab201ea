/**
 * Locations (hotel/location): the building -> floor -> room tree devices belong to, edited by
 * staff; rooms can be created a range at a time ("0801-0830 on floor 8").
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, LocationKind } from '../../../db/schema';
import { currentScope, currentUser, defineRoute, ok } from '../../../lib/route';
import { hasOrg, holdsRow, type DataScope } from '../../../lib/data-scope';
import { conflict, invalid, notFound, staleEdit } from '../../../lib/errors';
import { uniquely } from '../../../lib/conflicts';
import { roomRange } from './room-numbers';
import { locationAuditTarget } from './audit-target';
import { locationTree, toLocationRecord } from '../../../services/scoped-trees';

const SAVED = '保存成功';
const NAME_TAKEN = '同一上级下名称已存在';
/** The kind a child of each kind is; a building's parent is the root (0). */
const PARENT_KIND: Record<LocationKind, LocationKind | null> = { building: null, floor: 'building', room: 'floor' };
const KIND_NAME: Record<LocationKind, string> = { building: '楼栋', floor: '楼层', room: '房间' };

/**
 * A location is in scope when its building is: the building's hotel, or under 仅本人 its creator.
 * Out of scope it answers as a missing location would.
 */
async function assertInScope(db: Kysely<Database>, scope: DataScope, id: number, noun = '位置'): Promise<void> {
  if (scope.kind === 'all') return;
  let at = id;
  for (let steps = 0; steps < 3; steps += 1) {
    const node = await db.selectFrom('hotelLocation').select(['parentId', 'kind', 'orgId', 'createdBy']).where('id', '=', at).executeTakeFirst();
    if (!node) break;
    if (node.kind === 'building') {
      if (holdsRow(scope, node)) return;
      break;
    }
    at = node.parentId;
  }
  throw notFound(noun);
}

/** Refuses a parent that is missing or not the kind the new location hangs under. */
async function assertParent(db: Kysely<Database>, kind: LocationKind, parentId: number): Promise<void> {
  const parentKind = PARENT_KIND[kind];
  if (parentKind === null) {
    if (parentId !== 0) throw invalid('楼栋不能有上级位置');
    return;
  }
  const parent = await db.selectFrom('hotelLocation').select('kind').where('id', '=', parentId).executeTakeFirst();
  if (!parent) throw notFound('上级位置');
  if (parent.kind !== parentKind) throw invalid(`${KIND_NAME[kind]}只能建在${KIND_NAME[parentKind]}下`);
}

export function locationRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.audit.targets.register('location', locationAuditTarget);
  const nameTaken = async (parentId: number, name: string, exceptId = 0) =>
    (await app.db.selectFrom('hotelLocation').select('id').where('parentId', '=', parentId).where('name', '=', name).where('id', '<>', exceptId).executeTakeFirst()) !== undefined;

  defineRoute(app, 'GET /hotel/location/tree', 'resource', async (request) => ok(await locationTree(app.db, currentScope(request))));

  defineRoute(app, '/hotel/location/creation', 'resource', async (request) => {
    const { parentId, kind, name, sort } = request.body;
    const scope = currentScope(request);
    const me = currentUser(request);
    await assertParent(app.db, kind, parentId);
    if (kind !== 'building') await assertInScope(app.db, scope, parentId, '上级位置');
    // A building belongs to a hotel of the scope; floors and rooms follow their building.
    const orgId = kind === 'building' ? (request.body.orgId ?? me.orgId) : null;
    if (kind === 'building' && (orgId === null ? scope.kind !== 'all' : !hasOrg(scope, orgId))) throw notFound('所属酒店');
    if (await nameTaken(parentId, name)) throw conflict(NAME_TAKEN);
    const now = Date.now();
    const row = await uniquely(
      () =>
        app.db
          .insertInto('hotelLocation')
          .values({ parentId, kind, name, sort, orgId, createdBy: me.userId, createdAt: now, updatedAt: now })
          .returningAll()
          .executeTakeFirstOrThrow(),
      NAME_TAKEN,
    );
    return ok(toLocationRecord(row), SAVED);
  });

  defineRoute(app, '/hotel/location/edit', 'resource', async (request) => {
    const { id, name, sort, version } = request.body;
    await assertInScope(app.db, currentScope(request), id);
    const current = await app.db.selectFrom('hotelLocation').selectAll().where('id', '=', id).executeTakeFirst();
    if (!current) throw notFound('位置');
    if (current.version !== version) throw staleEdit();
    if (name !== current.name && (await nameTaken(current.parentId, name, id))) throw conflict(NAME_TAKEN);
    const row = await uniquely(
      () =>
        app.db
          .updateTable('hotelLocation')
          .set({ name, sort, updatedAt: Date.now(), version: version + 1 })
          .where('id', '=', id)
          .where('version', '=', version)
          .returningAll()
          .executeTakeFirst(),
      NAME_TAKEN,
    );
    if (!row) throw staleEdit();
    return ok(toLocationRecord(row), SAVED);
  });

  defineRoute(app, '/hotel/location/rooms/creation', 'resource', async (request) => {
    const { floorId, from, to } = request.body;
    const rooms = roomRange(from, to);
    if (typeof rooms === 'string') throw invalid(rooms);
    await assertParent(app.db, 'room', floorId);
    await assertInScope(app.db, currentScope(request), floorId, '上级位置');
    const result = await app.db.transaction().execute(async (trx) => {
      const existing = new Set((await trx.selectFrom('hotelLocation').select('name').where('parentId', '=', floorId).execute()).map((r) => r.name));
      const fresh = rooms.filter((room) => !existing.has(room));
      const now = Date.now();
      if (fresh.length > 0) {
        await trx
          .insertInto('hotelLocation')
          // Rooms of every batch share sort 0, so the tree orders them by number whatever the batches were.
          .values(fresh.map((name) => ({ parentId: floorId, kind: 'room' as const, name, sort: 0, createdAt: now, updatedAt: now })))
          .execute();
      }
      return { created: fresh.length, skipped: rooms.length - fresh.length };
    });
    return ok(result, `已创建 ${result.created} 个房间${result.skipped > 0 ? `，跳过已存在的 ${result.skipped} 个` : ''}`);
  });

  // Staff delete a mistyped room: only an empty location goes, so no device loses its place silently.
  defineRoute(app, '/hotel/location/removal', 'resource', async (request) => {
    const { id } = request.body;
    const scope = currentScope(request);
    await app.db.transaction().execute(async (trx) => {
      await assertInScope(trx, scope, id);
      const current = await trx.selectFrom('hotelLocation').select(['id', 'kind', 'name']).where('id', '=', id).executeTakeFirst();
      if (!current) throw notFound('位置');
      const label = `${KIND_NAME[current.kind]}「${current.name}」`;
      const child = await trx.selectFrom('hotelLocation').select('id').where('parentId', '=', id).limit(1).executeTakeFirst();
      if (child) throw conflict(`${label}下还有下级位置，请先删除下级位置`);
      const devices = await trx
        .selectFrom('hotelDevice')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('locationId', '=', id)
        .where('deletedAt', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(devices.n) > 0) throw conflict(`${label}下还有 ${Number(devices.n)} 台设备，请先把设备移到其他位置`);
      // Deleted devices keep their history, not their place.
      await trx.updateTable('hotelDevice').set({ locationId: null }).where('locationId', '=', id).execute();
      await trx.deleteFrom('hotelLocation').where('id', '=', id).execute();
    });
    return ok(null, '删除成功');
  });
  done();
}
