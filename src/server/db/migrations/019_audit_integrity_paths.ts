/**
 * The audit logs' hash-chain check is called integrity (完整性校验), no longer verify (the word for
 * sign-in): its endpoints moved from /monitor/operation/verify and /monitor/login/verify to
 * …/integrity. The resources guarding them keep their ids, so every role's grant of them holds, and
 * take the new path (and type, unless an operator changed it); their built-in markers take the new
 * keys, so the start-up sync finds them and adds no second resource. Old operation-log records keep
 * the path they were written with (the chain hashes them).
 */
import { sql, type Kysely } from 'kysely';

const RENAMED = [
  { menu: '/monitor/operation', from: '/monitor/operation/verify', to: '/monitor/operation/integrity' },
  { menu: '/monitor/login', from: '/monitor/login/verify', to: '/monitor/login/integrity' },
];

export const auditIntegrityPaths = {
  async up(db: Kysely<unknown>): Promise<void> {
    const now = Date.now();
    for (const { menu, from, to } of RENAMED) {
      await sql`update sys_resource set path = ${to}, type = case when type = 'api_verify' then 'api_integrity' else type end, updated_at = ${now}
        where path = ${from} and not exists (select 1 from sys_resource taken where taken.path = ${to})`.execute(db);
      const [oldKey, newKey] = [`resource:${menu}:api_verify`, `resource:${menu}:api_integrity`];
      await sql`update sys_builtin set "key" = ${newKey} where "key" = ${oldKey} and not exists (select 1 from sys_builtin taken where taken."key" = ${newKey})`.execute(db);
    }
  },
};
