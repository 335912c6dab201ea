/**
 * Start-up seed. An empty database gets the built-in catalogue, the 超级管理员 role and the
 * administrator in one transaction; a seeded one gets only the built-ins a newer version added
 * (sync.ts). A second instance starting at the same moment loses the race on a unique key and
 * keeps what the first one wrote.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { isUniqueViolation } from '../../db/connection';
import { ADMIN_NICK_NAME, ADMIN_ROLE_NAME, ADMIN_USER_NAME } from './catalogue';
import { syncBuiltins } from './sync';

export interface SeedResult {
  seeded: boolean;
}

export async function seedIfEmpty(db: Kysely<Database>, adminPasswordHash: () => Promise<string>): Promise<SeedResult> {
  const existing = await db.selectFrom('sysRole').select('id').limit(1).executeTakeFirst();
  try {
    if (existing) {
      await db.transaction().execute((trx) => syncBuiltins(trx));
      return { seeded: false };
    }
    const passwordHash = await adminPasswordHash();
    await db.transaction().execute(async (trx) => {
      const now = Date.now();
      const stamp = { createdAt: now, updatedAt: now };
      await syncBuiltins(trx);
      const role = await trx
        .insertInto('sysRole')
        .values({ name: ADMIN_ROLE_NAME, remark: '内置角色，拥有全部权限', state: 1, builtin: 1, ...stamp })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The administrator sits at the root of the organisation tree (created with it by migration 022).
      const root = await trx.selectFrom('sysOrg').select('id').where('pid', 'is', null).orderBy('id').executeTakeFirst();
      await trx
        .insertInto('sysUser')
        .values({ userName: ADMIN_USER_NAME, nickName: ADMIN_NICK_NAME, passwordHash, state: 1, roleId: role.id, orgId: root?.id ?? null, ...stamp })
        .execute();
    });
  } catch (error) {
    // Another instance seeded or synced first: its data stands.
    if (isUniqueViolation(error)) return { seeded: false };
    throw error;
  }
  return { seeded: true };
}
