/** How menus and the resources under them appear in the audit trail, each named by its name. */
import type { AuditTarget } from '../../../plugins/app/audit-targets';
import { MenuRecord } from '../../../../contract/sys/menu';
import { ResourceRecord } from '../../../../contract/sys/resource';
import type { Static } from '../../../../contract/common';
import { findMenu } from './repository';

export const menuAuditTarget: AuditTarget<Static<typeof MenuRecord>> = {
  schema: MenuRecord,
  load: (db, id) => findMenu(db, id),
  label: (menu) => menu.name,
};

export const resourceAuditTarget: AuditTarget<Static<typeof ResourceRecord>> = {
  schema: ResourceRecord,
  load: (db, id) => db.selectFrom('sysResource').select(['id', 'menuId', 'name', 'type', 'path', 'remark', 'version']).where('id', '=', id).executeTakeFirst(),
  label: (resource) => resource.name,
};
