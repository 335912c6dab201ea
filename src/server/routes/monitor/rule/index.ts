/**
 * Notification rules (monitor/rule): which alarms go to which channels, with quiet hours and
 * escalation steps. Applied where alarms are raised and cleared (services/notification/alarm-events.ts).
 * docs/api/monitor.md.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { BodyOf } from '../../../../contract';
import { isAlarmType } from '../../../../contract/constants';
import type { Database } from '../../../db/schema';
import { defineRoute, ok } from '../../../lib/route';
import { conflict, invalid, notFound } from '../../../lib/errors';
import { uniquely } from '../../../lib/conflicts';
import { contains, fetchPage, given } from '../../../lib/list-query';
import { valueTaken, versionedEdit } from '../../../lib/versioned-edit';
import { assertLocation } from '../../../services/location-paths';
import { findRuleRecord, toRuleRecords } from './repository';
import { ruleAuditTarget } from './audit-target';

const SAVED = '保存成功';
const NAME_TAKEN = '规则名称已存在';
type RuleBody = BodyOf<'/monitor/rule/creation'>;

/** Refuses (400 or 404) what the schema cannot: unknown types, channels, unit and location, half a quiet window, no channel at all. */
async function checkRule(db: Kysely<Database>, body: RuleBody): Promise<void> {
  const unknownType = body.alarmTypes.find((type) => !isAlarmType(type));
  if (unknownType !== undefined) throw invalid(`告警类型不正确：${unknownType}`);
  if ((body.quietStart === null) !== (body.quietEnd === null)) throw invalid('免打扰开始和结束时间须同时设置或同时留空');
  if (body.quietStart !== null && body.quietStart === body.quietEnd) throw invalid('免打扰开始和结束时间不能相同');
  const channels = new Set([...body.channelIds, ...body.escalation.flatMap((step) => step.channelIds)]);
  if (channels.size === 0) throw invalid('请至少选择一个通知渠道或升级渠道');
  const found = await db
    .selectFrom('notifyChannel')
    .select('id')
    .where('id', 'in', [...channels])
    .execute();
  if (found.length !== channels.size) throw notFound('通知渠道');
  for (let index = 1; index < body.escalation.length; index += 1) {
    if (body.escalation[index].afterMinutes <= body.escalation[index - 1].afterMinutes) throw invalid('升级步骤的等待分钟数须逐级增加');
  }
  if (body.orgId !== null && !(await db.selectFrom('sysOrg').select('id').where('id', '=', body.orgId).executeTakeFirst())) throw notFound('组织单位');
  await assertLocation(db, body.locationId);
}

const columnsOf = (body: RuleBody) => ({
  name: body.name,
  state: body.state,
  alarmTypes: JSON.stringify(body.alarmTypes),
  minSeverity: body.minSeverity,
  orgId: body.orgId,
  locationId: body.locationId,
  symptoms: body.symptoms,
  channelIds: JSON.stringify(body.channelIds),
  quietStart: body.quietStart,
  quietEnd: body.quietEnd,
  escalation: JSON.stringify(body.escalation),
  remark: body.remark,
});

export function ruleRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.audit.targets.register('rule', ruleAuditTarget);
  defineRoute(app, '/monitor/rule/inquire', 'resource', async (request) => {
    const filters = request.body.params ?? {};
    let query = app.db.selectFrom('notifyRule');
    if (given(filters.name)) query = query.where((eb) => contains(eb.ref('name'), filters.name!));
    if (filters.state !== undefined) query = query.where('state', '=', filters.state);
    const page = await fetchPage(
      request.body,
      () => query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      (limit, offset) => query.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    );
    return ok({ ...page, records: await toRuleRecords(app.db, page.records) });
  });

  defineRoute(app, '/monitor/rule/creation', 'resource', async (request) => {
    await checkRule(app.db, request.body);
    if (await valueTaken(app.db, 'notifyRule', 'name', request.body.name)) throw conflict(NAME_TAKEN);
    const now = Date.now();
    const created = await uniquely(
      () =>
        app.db
          .insertInto('notifyRule')
          .values({ ...columnsOf(request.body), createdAt: now, updatedAt: now })
          .returning('id')
          .executeTakeFirstOrThrow(),
      NAME_TAKEN,
    );
    return ok((await findRuleRecord(app.db, created.id))!, SAVED);
  });

  defineRoute(app, '/monitor/rule/edit', 'resource', async (request) => {
    const body = request.body;
    const row = await versionedEdit(app.db, {
      table: 'notifyRule',
      edit: body,
      noun: '通知规则',
      unique: { column: 'name', value: body.name, message: NAME_TAKEN },
      check: () => checkRule(app.db, body),
      changes: () => columnsOf(body),
    });
    return ok((await findRuleRecord(app.db, row.id))!, SAVED);
  });

  defineRoute(app, '/monitor/rule/removal', 'resource', async (request) => {
    const { id } = request.body;
    // Its escalation steps still waiting go with it.
    await app.db.transaction().execute(async (trx) => {
      const removed = await trx.deleteFrom('notifyRule').where('id', '=', id).executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) throw notFound('通知规则');
      await trx.deleteFrom('notifyEscalation').where('ruleId', '=', id).execute();
    });
    return ok(null, '删除成功');
  });
  done();
}
