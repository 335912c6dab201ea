/**
 * Notification records (monitor/message): every message the outbox holds, newest first, with its
 * channel, state, attempts and the vendor's last answer; exported like the other lists; failed
 * messages (dead letters) can be queued again.
 */
import { Type } from '@sinclair/typebox';
import { field, listExport, paged, pagedRequest } from '../common';
import { acts, download, post, reads, scoped } from '../endpoint';

/**
 * queued: waiting to be sent (or to be tried again); sending: claimed by an instance; sent: the
 * vendor took it; digested: merged into a digest while its channel was throttled (digestId);
 * failed: a dead letter (refused for good, or out of attempts).
 */
export const MESSAGE_STATES = ['queued', 'sending', 'sent', 'digested', 'failed'] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];
/** raise / clear / escalation: about an alarm; digest: several merged; test: 测试发送. */
export const MESSAGE_KINDS = ['raise', 'clear', 'escalation', 'digest', 'test'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const MessageRecord = Type.Object({
  id: Type.Integer(),
  channelId: Type.Integer(),
  channelName: Type.String(),
  channelType: Type.String(),
  alarmId: field.nullable(Type.Integer()),
  kind: Type.String(),
  title: Type.String(),
  body: Type.String(),
  state: Type.String(),
  attempts: Type.Integer(),
  /** When it is tried next (queued), or when its claim lapses (sending). */
  nextAttemptAt: Type.Integer(),
  /** The vendor's last HTTP status or SMTP reply code; null before an answer. */
  vendorStatus: field.nullable(Type.Integer()),
  /** The vendor's last answer (cut at 2,000 characters). */
  vendorAnswer: Type.String(),
  lastError: Type.String(),
  createdAt: field.time(),
  sentAt: field.nullable(Type.Integer()),
  /** The digest a digested message went out in. */
  digestId: field.nullable(Type.Integer()),
  /** For a digest: how many messages it carries. */
  digestCount: Type.Integer(),
});

export const MessageInquire = pagedRequest({
  channelId: field.id('渠道'),
  state: Type.Union(
    MESSAGE_STATES.map((value) => Type.Literal(value)),
    { title: '状态' },
  ),
  kind: Type.Union(
    MESSAGE_KINDS.map((value) => Type.Literal(value)),
    { title: '消息类型' },
  ),
  alarmId: field.id('告警'),
  /** The messages a digest carries. */
  digestId: field.id('合并消息'),
  startAt: field.instant('开始时间'),
  endAt: field.instant('结束时间'),
});
export const MessageExport = listExport(MessageInquire);

export const MessageIds = Type.Object({ ids: Type.Array(field.id('消息'), { title: '消息', minItems: 1, maxItems: 500 }) }, { additionalProperties: false });
export const MessagesQueued = Type.Object({ count: Type.Integer() });

export const messageEndpoints = {
  '/monitor/message/inquire': scoped('message', post(MessageInquire, paged(MessageRecord), reads)),
  '/monitor/message/export': scoped('message', download(MessageExport)),
  '/monitor/message/resend': scoped('message', post(MessageIds, MessagesQueued, acts('message', 'body.ids.0'))),
};
