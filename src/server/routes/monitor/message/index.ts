/**
 * 通知记录 (monitor/message): every message of the outbox with its channel, state, attempts and the
 * vendor's answer; its export; and resending dead letters (failed messages go back to the queue
 * with their attempts anew). docs/api/monitor.md.
 */
import type { FastifyInstance } from 'fastify';
import { formatTime } from '../../../../contract/time';
import { currentScope, defineRoute, ok } from '../../../lib/route';
import { conflict, notFound } from '../../../lib/errors';
import { countUpTo, fetchCappedPage, inOrder, ordered } from '../../../lib/list-query';
import { sendXlsx } from '../../../lib/xlsx';
import { dictionaryLabels } from '../../../services/dictionary-labels';
import { filteredMessages, messagesInScope, NEWEST_MESSAGES, toMessageRecord, withMessageColumns } from './repository';
import { messageAuditTarget } from './audit-target';

export function messageRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.audit.targets.register('message', messageAuditTarget);
  defineRoute(app, '/monitor/message/inquire', 'resource', async (request) => {
    const query = filteredMessages(app.reads, currentScope(request), request.body.params ?? {});
    // The outbox grows with every alarm: counted up to the cap, like the audit logs.
    const page = await fetchCappedPage(
      request.body,
      countUpTo(app.reads, query.select('m.id')),
      (limit, offset, seek) =>
        ordered(withMessageColumns(query.$if(seek !== null, (q) => q.where(seek!))), NEWEST_MESSAGES)
          .limit(limit)
          .offset(offset)
          .execute(),
      { order: NEWEST_MESSAGES, rowById: (id) => app.reads.selectFrom('notifyMessage').select('id').where('id', '=', id).executeTakeFirst() },
    );
    return ok({ ...page, records: page.records.map(toMessageRecord) });
  });

  defineRoute(app, '/monitor/message/export', 'resource', async (request, reply) => {
    const [state, kind, type] = await Promise.all(['notify_message_state', 'notify_message_kind', 'notify_channel_type'].map((code) => dictionaryLabels(app.db, code)));
    const query = filteredMessages(app.reads, currentScope(request), request.body.params ?? {});
    return sendXlsx(reply, {
      fileName: '通知记录',
      sheetName: '通知记录',
      columns: [
        { header: '编号', width: 10, value: (r) => r.id },
        { header: '创建时间', width: 20, value: (r) => formatTime(r.createdAt) },
        { header: '渠道', value: (r) => r.channelName },
        { header: '渠道类型', width: 14, value: (r) => type(r.channelType) },
        { header: '消息类型', width: 10, value: (r) => kind(r.kind) },
        { header: '告警编号', width: 10, value: (r) => r.alarmId },
        { header: '标题', width: 40, value: (r) => r.title },
        { header: '状态', width: 10, value: (r) => state(r.state) },
        { header: '尝试次数', width: 10, value: (r) => r.attempts },
        { header: '厂商状态码', width: 12, value: (r) => r.vendorStatus },
        { header: '厂商应答', width: 40, value: (r) => r.vendorAnswer },
        { header: '最后错误', width: 40, value: (r) => r.lastError },
        { header: '发送时间', width: 20, value: (r) => formatTime(r.sentAt) },
        { header: '合并到', width: 10, value: (r) => r.digestId },
      ],
      rows: inOrder(NEWEST_MESSAGES, async (seek, limit) =>
        (
          await ordered(withMessageColumns(query.$if(seek !== null, (q) => q.where(seek!))), NEWEST_MESSAGES)
            .limit(limit)
            .execute()
        ).map(toMessageRecord),
      ),
    });
  });

  defineRoute(app, '/monitor/message/resend', 'resource', async (request) => {
    const ids = [...new Set(request.body.ids)];
    // A message out of scope answers as a missing one would.
    const rows = await messagesInScope(app.db, currentScope(request)).select(['m.id', 'm.state']).where('m.id', 'in', ids).execute();
    if (rows.length !== ids.length) throw notFound('通知记录');
    if (!rows.some((row) => row.state === 'failed')) throw conflict('只有发送失败的消息可以重发');
    const result = await app.db
      .updateTable('notifyMessage')
      .set({ state: 'queued', attempts: 0, nextAttemptAt: Date.now(), lastError: '', claimedBy: null })
      .where('id', 'in', ids)
      .where('state', '=', 'failed')
      .executeTakeFirst();
    const count = Number(result.numUpdatedRows);
    app.notifications.wake();
    return ok({ count }, `已重新排队 ${count} 条消息`);
  });
  done();
}
