/** How a dictionary entry appears in the audit trail: named `code:label`. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { DictRecord } from '../../../../contract/sys/dict';
import type { Static } from '../../../../contract/common';
import { findDict } from './repository';

export const dictAuditTarget: AuditTarget<Static<typeof DictRecord>> = {
  schema: DictRecord,
  load: findDict,
  label: (entry) => `${entry.code}:${entry.label}`,
};
