/** How a notification channel appears in the audit trail: credentials only as their masks, named by its name. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { ChannelRecord } from '../../../../contract/monitor/channel';
import { findChannelRecord, type ChannelAnswer } from './repository';

export const channelAuditTarget: AuditTarget<ChannelAnswer> = {
  schema: ChannelRecord,
  load: (db, id) => findChannelRecord(db, id),
  label: (channel) => channel.name,
};
