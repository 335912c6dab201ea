/**
 * Notification channels (monitor/channel): list, create, edit and test the robots, webhooks and
 * SMTP servers alarms are sent to. Credentials are write-only (services/notification/channel-config.ts);
 * changing how a channel sends makes its health unknown again. docs/api/monitor.md.
 */
import type { FastifyInstance } from 'fastify';
import type { CHANNEL_SORT_KEYS } from '../../../../contract/monitor/channel';
import { defineRoute, ok } from '../../../lib/route';
import { conflict } from '../../../lib/errors';
import { uniquely } from '../../../lib/conflicts';
import { contains, defaultOrder, fetchPage, given, listOrder, ordered, type SortColumn } from '../../../lib/list-query';
import { valueTaken, versionedEdit } from '../../../lib/versioned-edit';
import { parseSettings, sameSettings, settingsToStore, type ChannelSettings } from '../../../services/notification/channel-config';
import { channelsWithFailures, findChannelRecord, toChannelRecord } from './repository';
import { channelAuditTarget } from './audit-target';

const SAVED = '保存成功';
const NAME_TAKEN = '渠道名称已存在';
const CHANNEL_SORT: Record<(typeof CHANNEL_SORT_KEYS)[number], SortColumn> = {
  name: 'c.name',
  type: 'c.type',
  state: 'c.state',
  health: 'c.health',
  updatedAt: 'c.updatedAt',
};
const BY_ID = defaultOrder(['id', 'c.id']);

const TEST_MESSAGES = {
  sent: () => '测试消息已发送',
  throttled: (reason: string) => `测试消息未发送：${reason}`,
  refused: (reason: string) => `渠道拒绝了测试消息：${reason}`,
  retry: (reason: string) => `测试消息发送失败：${reason}`,
};

/** Health starts over when a channel sends somewhere else or otherwise. */
const UNKNOWN_HEALTH = { health: 'unknown', healthReason: '', healthAt: null };

export function channelRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.audit.targets.register('channel', channelAuditTarget);
  defineRoute(app, '/monitor/channel/inquire', 'resource', async (request) => {
    const filters = request.body.params ?? {};
    let query = channelsWithFailures(app.db);
    if (given(filters.name)) query = query.where((eb) => contains(eb.ref('c.name'), filters.name!));
    if (filters.type !== undefined) query = query.where('c.type', '=', filters.type);
    if (filters.state !== undefined) query = query.where('c.state', '=', filters.state);
    if (filters.health !== undefined) query = query.where('c.health', '=', filters.health);
    const page = await fetchPage(
      request.body,
      () =>
        query
          .clearSelect()
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      (limit, offset) =>
        ordered(query, listOrder(request.body.sort, CHANNEL_SORT, BY_ID, 'c.id'))
          .limit(limit)
          .offset(offset)
          .execute(),
    );
    return ok({ ...page, records: page.records.map(toChannelRecord) });
  });

  defineRoute(app, '/monitor/channel/creation', 'resource', async (request) => {
    const { name, type, config, state, remark } = request.body;
    const settings = settingsToStore(type, config);
    if (await valueTaken(app.db, 'notifyChannel', 'name', name)) throw conflict(NAME_TAKEN);
    const now = Date.now();
    const created = await uniquely(
      () =>
        app.db
          .insertInto('notifyChannel')
          .values({ name, type, config: JSON.stringify(settings), state, remark, healthAt: null, createdAt: now, updatedAt: now })
          .returning('id')
          .executeTakeFirstOrThrow(),
      NAME_TAKEN,
    );
    return ok((await findChannelRecord(app.db, created.id))!, SAVED);
  });

  defineRoute(app, '/monitor/channel/edit', 'resource', async (request) => {
    const body = request.body;
    let settings: ChannelSettings = {};
    const row = await versionedEdit(app.db, {
      table: 'notifyChannel',
      edit: body,
      noun: '通知渠道',
      unique: { column: 'name', value: body.name, message: NAME_TAKEN },
      // The form never holds the stored credentials: blank ones are kept while the type stays.
      check: (current) => {
        settings = settingsToStore(body.type, body.config, current.type === body.type ? parseSettings(current.config) : undefined);
      },
      changes: (current) => ({
        name: body.name,
        type: body.type,
        config: JSON.stringify(settings),
        state: body.state,
        remark: body.remark,
        ...(current.type !== body.type || !sameSettings(parseSettings(current.config), settings) ? UNKNOWN_HEALTH : {}),
      }),
    });
    return ok((await findChannelRecord(app.db, row.id))!, SAVED);
  });

  defineRoute(app, '/monitor/channel/test', 'resource', async (request) => {
    const result = await app.notifications.sendTest(request.body.id);
    return ok(result, TEST_MESSAGES[result.verdict](result.reason));
  });
  done();
}
