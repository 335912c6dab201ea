/**
 * Message templates (monitor/template, on the 通知渠道 screen): every channel type and message kind
 * with its template, edited or the built-in default; edit, back to the default, and a preview with
 * a sample alarm. A template naming a placeholder that does not exist is refused under its field.
 * The templates apply to messages queued from then on (services/notification/templates.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { Database } from '../../../db/schema';
import { CHANNEL_TYPES, type ChannelType } from '../../../../contract/monitor/channel';
import { TEMPLATE_KINDS, type TemplateKind } from '../../../../contract/constants';
import type { TemplateRecord } from '../../../../contract/monitor/template';
import { defineRoute, ok } from '../../../lib/route';
import { invalidField, staleEdit } from '../../../lib/errors';
import { uniquely } from '../../../lib/conflicts';
import { OFFLINE_ALARM } from '../../../services/device-status/transitions';
import { alarmLink, defaultTemplate, fillLink, fillTemplate, unknownPlaceholders, type AlarmFields } from '../../../services/notification/templates';

type TemplateAnswer = Static<typeof TemplateRecord>;
const SAVED = '保存成功';

/** A stable row id per pair: the channel type's place, then the kind's. */
const idOf = (channelType: ChannelType, kind: TemplateKind) => CHANNEL_TYPES.indexOf(channelType) * 10 + TEMPLATE_KINDS.indexOf(kind) + 1;

async function readTemplates(db: Kysely<Database>): Promise<TemplateAnswer[]> {
  const rows = await db.selectFrom('notifyTemplate').selectAll().execute();
  const stored = new Map(rows.map((row) => [`${row.channelType}:${row.kind}`, row]));
  return CHANNEL_TYPES.flatMap((channelType) =>
    TEMPLATE_KINDS.map((kind) => {
      const row = stored.get(`${channelType}:${kind}`);
      const text = row ?? defaultTemplate(channelType, kind);
      return {
        id: idOf(channelType, kind),
        channelType,
        kind,
        title: text.title,
        body: text.body,
        custom: row ? 1 : 0,
        version: row?.version ?? 0,
        updatedAt: row?.updatedAt ?? null,
      };
    }),
  );
}

const findTemplate = async (db: Kysely<Database>, channelType: ChannelType, kind: TemplateKind) =>
  (await readTemplates(db)).find((template) => template.channelType === channelType && template.kind === kind)!;

/** Refuses a placeholder that does not exist, under the field that names it. */
function checkPlaceholders(text: { title: string; body: string }): void {
  for (const name of ['title', 'body'] as const) {
    const unknown = unknownPlaceholders(text[name]);
    if (unknown.length > 0) throw invalidField(name, `未知的占位符：${unknown.join('、')}`);
  }
}

/** What a preview fills a template with. */
function sampleAlarm(kind: TemplateKind, now: number): AlarmFields {
  return {
    id: 1024,
    ...OFFLINE_ALARM,
    startedAt: now - 20 * 60_000,
    clearedAt: kind === 'clear' ? now : null,
    count: 1,
    deviceId: 1,
    deviceName: '0808 门锁',
    deviceSn: 'LOCK-0808',
    location: '主楼 / 8F / 0808',
  };
}
const SAMPLE_MINUTES = 15;

export function templateRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  defineRoute(app, '/monitor/template/inquire', 'resource', async (request) => {
    const { size, current, params = {} } = request.body;
    const all = (await readTemplates(app.db)).filter(
      (template) => (params.channelType === undefined || template.channelType === params.channelType) && (params.kind === undefined || template.kind === params.kind),
    );
    return ok({ records: all.slice((current - 1) * size, current * size), current, size, total: all.length, totalIsLowerBound: false });
  });

  defineRoute(app, '/monitor/template/edit', 'resource', async (request) => {
    const { channelType, kind, title, body, version } = request.body;
    checkPlaceholders({ title, body });
    const now = Date.now();
    await app.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('notifyTemplate').select(['id', 'version']).where('channelType', '=', channelType).where('kind', '=', kind).executeTakeFirst();
      if ((row?.version ?? 0) !== version) throw staleEdit();
      if (row) {
        const updated = await trx
          .updateTable('notifyTemplate')
          .set({ title, body, updatedAt: now, version: version + 1 })
          .where('id', '=', row.id)
          .where('version', '=', version)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) throw staleEdit();
      } else {
        await uniquely(
          () => trx.insertInto('notifyTemplate').values({ channelType, kind, title, body, createdAt: now, updatedAt: now, version: 1 }).execute(),
          '数据已被他人修改，请刷新后重试',
        );
      }
    });
    return ok(await findTemplate(app.db, channelType, kind), SAVED);
  });

  defineRoute(app, '/monitor/template/reset', 'resource', async (request) => {
    const { channelType, kind } = request.body;
    await app.db.deleteFrom('notifyTemplate').where('channelType', '=', channelType).where('kind', '=', kind).execute();
    return ok(await findTemplate(app.db, channelType, kind), '已恢复默认模板');
  });

  defineRoute(app, '/monitor/template/preview', 'resource', (request) => {
    const { kind, title, body } = request.body;
    checkPlaceholders({ title, body });
    const alarm = sampleAlarm(kind, Date.now());
    const filled = fillTemplate({ title, body }, alarm, SAMPLE_MINUTES);
    const consoleUrl = app.config.notify.consoleUrl;
    const link = consoleUrl ? `${consoleUrl}${alarmLink(alarm.id)}` : '';
    return Promise.resolve(ok({ title: fillLink(filled.title, link), body: fillLink(filled.body, link) }));
  });
  done();
}
