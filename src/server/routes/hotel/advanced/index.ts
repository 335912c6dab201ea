/**
 * Advanced settings (hotel/advanced): integration configurations and their initialisation. The app
 * secret is write-only (docs/api/hotel.md): answers carry a mask, an edit with an empty secret keeps the
 * stored one. Changing the platform parameters clears initialisedAt, so the list shows which
 * configurations need initialising again. A configuration belongs to a hotel (its unit): a scoped
 * caller lists, edits and initialises only those of the scope, and places new ones only there.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, Row } from '../../../db/schema';
import { currentScope, currentUser, defineRoute, ok } from '../../../lib/route';
import { hasOrg, inScope, type DataScope, type ScopeColumns } from '../../../lib/data-scope';
import { conflict, invalid, notFound, staleEdit } from '../../../lib/errors';
import { contains, defaultOrder, fetchPage, given, listOrder, ordered, type SortColumn } from '../../../lib/list-query';
import type { ADVANCED_SORT_KEYS } from '../../../../contract/hotel/advanced';
import { uniquely } from '../../../lib/conflicts';
import { valueTaken, versionedEdit } from '../../../lib/versioned-edit';
import { maskSecret } from '../../../lib/mask-secret';
import { isHttpUrl } from '../../../lib/http-url';
import { advancedAuditTarget } from './audit-target';

const SAVED = '保存成功';
const NAME_TAKEN = '配置名称已存在';
const INITIALISED = '初始化成功';
const URL_RULE = '接口地址格式不正确：应为 http:// 或 https:// 开头的完整地址';
/** The sort keys of the settings list (contract ADVANCED_SORT_KEYS) and the columns they order by. */
const ADVANCED_SORT: Record<(typeof ADVANCED_SORT_KEYS)[number], SortColumn> = {
  name: 'name',
  state: 'state',
  initialisedAt: { column: 'initialisedAt', nullable: true },
  updatedAt: 'updatedAt',
};
const BY_ID = defaultOrder(['id', 'id']);
const ADVANCED_SCOPE: ScopeColumns = { org: 'hotelAdvanced.orgId', self: 'hotelAdvanced.createdBy' };

const scopedSettings = (db: Kysely<Database>, scope: DataScope) => db.selectFrom('hotelAdvanced').$call(inScope(scope, ADVANCED_SCOPE));

/** The unit a configuration goes to: the one asked for, else `fallback`; only a unit of the scope. */
function placedUnder(scope: DataScope, asked: number | null, fallback: number | null): number | null {
  const orgId = asked ?? fallback;
  if (orgId === null ? scope.kind !== 'all' : !hasOrg(scope, orgId)) throw notFound('所属酒店');
  return orgId;
}

type Parameters = Pick<Row<'hotelAdvanced'>, 'endpointUrl' | 'appKey' | 'appSecret'>;
const sameParameters = (a: Parameters, b: Parameters) => a.endpointUrl === b.endpointUrl && a.appKey === b.appKey && a.appSecret === b.appSecret;

/** Only the mask of the secret leaves the server. */
const toRecord = (row: Row<'hotelAdvanced'>) => ({
  id: row.id,
  name: row.name,
  endpointUrl: row.endpointUrl,
  appKey: row.appKey,
  appSecretMasked: maskSecret(row.appSecret),
  state: row.state,
  remark: row.remark,
  initialisedAt: row.initialisedAt,
  orgId: row.orgId,
  version: row.version,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export function advancedRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.audit.targets.register('advanced', advancedAuditTarget);
  const nameTaken = (name: string) => valueTaken(app.db, 'hotelAdvanced', 'name', name);
  // A configuration may be saved incomplete (initialisation says what is missing), but what it has must be well formed.
  const assertSavable = (endpointUrl: string) => {
    if (endpointUrl !== '' && !isHttpUrl(endpointUrl)) throw invalid(URL_RULE);
  };

  defineRoute(app, '/hotel/advanced/inquire', 'resource', async (request) => {
    const filters = request.body.params ?? {};
    let query = scopedSettings(app.db, currentScope(request));
    if (given(filters.name)) query = query.where((eb) => contains(eb.ref('name'), filters.name!));
    if (filters.state !== undefined) query = query.where('state', '=', filters.state);
    const page = await fetchPage(
      request.body,
      () => query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      (limit, offset) =>
        ordered(query.selectAll(), listOrder(request.body.sort, ADVANCED_SORT, BY_ID))
          .limit(limit)
          .offset(offset)
          .execute(),
    );
    return ok({ ...page, records: page.records.map(toRecord) });
  });

  defineRoute(app, '/hotel/advanced/creation', 'resource', async (request) => {
    const body = request.body;
    const me = currentUser(request);
    const orgId = placedUnder(currentScope(request), body.orgId, me.orgId);
    assertSavable(body.endpointUrl);
    if (await nameTaken(body.name)) throw conflict(NAME_TAKEN);
    const now = Date.now();
    const row = await uniquely(
      () =>
        app.db
          .insertInto('hotelAdvanced')
          .values({
            name: body.name,
            endpointUrl: body.endpointUrl,
            appKey: body.appKey,
            appSecret: body.appSecret,
            state: body.state,
            remark: body.remark,
            initialisedAt: null,
            orgId,
            createdBy: me.userId,
            createdAt: now,
            updatedAt: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      NAME_TAKEN,
    );
    return ok(toRecord(row), SAVED);
  });

  defineRoute(app, '/hotel/advanced/edit', 'resource', async (request) => {
    const body = request.body;
    const scope = currentScope(request);
    const stored = await scopedSettings(app.db, scope).select('orgId').where('id', '=', body.id).executeTakeFirst();
    if (!stored) throw notFound('高级设置');
    const orgId = placedUnder(scope, body.orgId, stored.orgId);
    const row = await versionedEdit(app.db, {
      table: 'hotelAdvanced',
      edit: body,
      noun: '高级设置',
      unique: { column: 'name', value: body.name, message: NAME_TAKEN },
      check: () => assertSavable(body.endpointUrl),
      changes: (current) => {
        // The form never holds the stored secret, so an empty field means "unchanged".
        const appSecret = body.appSecret === '' ? current.appSecret : body.appSecret;
        const parametersChanged = !sameParameters({ endpointUrl: body.endpointUrl, appKey: body.appKey, appSecret }, current);
        return {
          name: body.name,
          endpointUrl: body.endpointUrl,
          appKey: body.appKey,
          appSecret,
          state: body.state,
          remark: body.remark,
          orgId,
          ...(parametersChanged ? { initialisedAt: null } : {}),
        };
      },
    });
    return ok(toRecord(row), SAVED);
  });

  defineRoute(app, '/hotel/advanced/jd/edit', 'resource', async (request) => {
    const current = await scopedSettings(app.db, currentScope(request)).selectAll().where('id', '=', request.body.id).executeTakeFirst();
    if (!current) throw notFound('高级设置');
    const missing = [current.endpointUrl === '' ? '接口地址' : null, current.appKey === '' ? 'App Key' : null, current.appSecret === '' ? 'App Secret' : null].filter(
      (name): name is string => name !== null,
    );
    if (missing.length > 0) throw invalid(`无法初始化：缺少 ${missing.join('、')}`);
    if (!isHttpUrl(current.endpointUrl)) throw invalid(`无法初始化：${URL_RULE}`);
    if (current.state !== 1) throw invalid('无法初始化：该配置已停用，请先启用');

    // Applying the same parameters again changes nothing, the first stamp included: idempotent.
    // Initialisation is not an edit of the form, so the version (the edit dialog's lock) stays.
    if (current.initialisedAt !== null) return ok(toRecord(current), INITIALISED);
    // Stamps only the parameters checked above: an edit landing in between is not marked applied.
    const row = await app.db
      .updateTable('hotelAdvanced')
      .set({ initialisedAt: Date.now() })
      .where('id', '=', current.id)
      .where('initialisedAt', 'is', null)
      .where('endpointUrl', '=', current.endpointUrl)
      .where('appKey', '=', current.appKey)
      .where('appSecret', '=', current.appSecret)
      .where('state', '=', 1)
      .returningAll()
      .executeTakeFirst();
    if (row) return ok(toRecord(row), INITIALISED);
    // A second click racing the first finds the same parameters already applied.
    const latest = await app.db.selectFrom('hotelAdvanced').selectAll().where('id', '=', current.id).executeTakeFirst();
    if (latest && latest.initialisedAt !== null && sameParameters(latest, current)) return ok(toRecord(latest), INITIALISED);
    throw staleEdit();
  });
  done();
}
