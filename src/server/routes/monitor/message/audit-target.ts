/** How a notification message appears in the audit trail (a resend): named `channel：title`. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { MessageRecord } from '../../../../contract/monitor/message';
import { findMessageRecord, type MessageAnswer } from './repository';

export const messageAuditTarget: AuditTarget<MessageAnswer> = {
  schema: MessageRecord,
  load: (db, id) => findMessageRecord(db, id),
  label: (message) => `${message.channelName}：${message.title}`,
};
