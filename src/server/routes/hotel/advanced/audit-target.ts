/** How an integration configuration appears in the audit trail: its secret masked, named by its name. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { AdvancedRecord } from '../../../../contract/hotel/advanced';
import { maskSecret } from '../../../lib/mask-secret';

export const advancedAuditTarget: AuditTarget<{ name: string; orgId: number | null }> = {
  schema: AdvancedRecord,
  load: async (db, id) => {
    const row = await db.selectFrom('hotelAdvanced').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const { appSecret, ...rest } = row;
    return { ...rest, appSecretMasked: maskSecret(appSecret) };
  },
  label: (settings) => settings.name,
  unit: (_db, settings) => settings.orgId,
};
