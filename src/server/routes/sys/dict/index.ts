/**
 * Dictionary entries (sys/dict) and their bindings to field resources. Binding is idempotent:
 * binding a bound pair or unbinding an unbound one succeeds and changes nothing, so a double
 * click or a retry never shows an error.
 */
import type { FastifyInstance } from 'fastify';
import { defineRoute, ok } from '../../../lib/route';
import { invalid, notFound, staleEdit } from '../../../lib/errors';
import { uniquely } from '../../../lib/conflicts';
import { BINDABLE_TYPE_PREFIX, dictsInOrder, findDict, inquireBindableResources, inquireDicts } from './repository';
import { sendXlsx } from '../../../lib/xlsx';
import { formatTime } from '../../../../contract/time';
import { viewLabels } from '../../../services/dictionary-labels';
import { dictAuditTarget } from './audit-target';
import { menuDictionaryRoutes } from './menu-dictionary';

const clashOf = (code: string, value: string) => `字典 ${code} 中已存在值 ${value}`;

export function dictRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.audit.targets.register('dict', dictAuditTarget);
  menuDictionaryRoutes(app);
  defineRoute(app, '/sys/dict/inquire', 'resource', async (request) => ok(await inquireDicts(app.db, request.body)));

  defineRoute(app, '/sys/dict/export', 'resource', async (request, reply) => {
    const labels = await viewLabels(app.db, 'sys/dict');
    return sendXlsx(reply, {
      fileName: '数据字典',
      sheetName: '字典',
      columns: [
        { header: '字典编码', width: 20, value: (entry) => entry.code },
        { header: '名称', value: (entry) => entry.label },
        { header: '值', value: (entry) => entry.value },
        { header: '排序', width: 8, value: (entry) => entry.sort },
        { header: '状态', width: 10, value: (entry) => labels.labelOf('state', entry.state) },
        { header: '备注', width: 30, value: (entry) => entry.remark },
        { header: '更新时间', width: 20, value: (entry) => formatTime(entry.updatedAt) },
      ],
      rows: dictsInOrder(app.db, request.body),
    });
  });

  defineRoute(app, '/sys/dict/creation', 'resource', async (request) => {
    const entry = request.body;
    const now = Date.now();
    const { id } = await uniquely(
      () =>
        app.db
          .insertInto('sysDict')
          .values({ ...entry, createdAt: now, updatedAt: now })
          .returning('id')
          .executeTakeFirstOrThrow(),
      clashOf(entry.code, entry.value),
    );
    return ok(await findDict(app.db, id), '字典添加成功');
  });

  defineRoute(app, '/sys/dict/edit', 'resource', async (request) => {
    const { id, version, ...entry } = request.body;
    const existing = await findDict(app.db, id);
    if (existing.version !== version) throw staleEdit();
    const result = await uniquely(
      () =>
        app.db
          .updateTable('sysDict')
          .set({ ...entry, updatedAt: Date.now(), version: version + 1 })
          .where('id', '=', id)
          .where('version', '=', version)
          .executeTakeFirst(),
      clashOf(entry.code, entry.value),
    );
    if (Number(result.numUpdatedRows) === 0) throw staleEdit();
    return ok(await findDict(app.db, id), '修改成功');
  });

  defineRoute(app, '/sys/resource/inquires', 'resource', async (request) => {
    await findDict(app.db, request.body.params.dictId);
    return ok(await inquireBindableResources(app.db, request.body));
  });

  /** Both ids must exist; answers the resource's type. */
  const resourceTypeOf = async (resourceId: number, dictId: number) => {
    const resource = await app.db.selectFrom('sysResource').select('type').where('id', '=', resourceId).executeTakeFirst();
    if (!resource) throw notFound('资源');
    await findDict(app.db, dictId);
    return resource.type;
  };

  defineRoute(app, '/sys/dict/bind', 'resource', async (request) => {
    const { resourceId, dictId } = request.body;
    // Only field resources take their options from the dictionary.
    if (!(await resourceTypeOf(resourceId, dictId)).startsWith(BINDABLE_TYPE_PREFIX)) {
      throw invalid('只有字段资源（field_）可以绑定字典');
    }
    await app.db
      .insertInto('sysDictResource')
      .values({ resourceId, dictId })
      .onConflict((oc) => oc.columns(['resourceId', 'dictId']).doNothing())
      .execute();
    return ok(null, '绑定成功');
  });

  defineRoute(app, '/sys/dict/unbind', 'resource', async (request) => {
    const { resourceId, dictId } = request.body;
    await resourceTypeOf(resourceId, dictId);
    await app.db.deleteFrom('sysDictResource').where('resourceId', '=', resourceId).where('dictId', '=', dictId).execute();
    return ok(null, '解绑成功');
  });
  done();
}
