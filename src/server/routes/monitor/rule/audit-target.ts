/** How a notification rule appears in the audit trail, named by its name. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { RuleRecord } from '../../../../contract/monitor/rule';
import { findRuleRecord, type RuleAnswer } from './repository';

export const ruleAuditTarget: AuditTarget<RuleAnswer> = {
  schema: RuleRecord,
  load: (db, id) => findRuleRecord(db, id),
  label: (rule) => rule.name,
};
