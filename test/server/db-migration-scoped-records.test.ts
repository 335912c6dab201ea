/**
 * Migration 027: audit records keep their actor's and target's units. Records written before it get
 * their actor's (login: their user's) current unit and no target unit; their hashes stay as written,
 * so the integrity check passes across the migration, and records written after it have hashes that
 * cover their units (changing one is detected).
 */
import type { Kysely } from 'kysely';
import pg from 'pg';
import { createTestDatabase, dialects } from './support/harness';
import { migrateUpTo, openTestKysely } from './support/migrations';
import type { Database } from '../../src/server/db/schema';
import { appendToChain, checkChainIntegrity, type LoginEntry, type OperationEntry } from '../../src/server/lib/audit-chain';

const operation = (operatorId: number | null, msg: string) => ({
  operatorType: operatorId === null ? 'anonymous' : 'user',
  operatorId,
  operatorName: operatorId === null ? '' : 'desk',
  module: '用户管理',
  action: '编辑用户',
  path: '/sys/user/edit',
  targetType: 'user',
  targetId: '1',
  targetLabel: 'desk',
  outcome: 'success',
  code: 200,
  msg,
  ip: '10.0.0.1',
  durationMs: 1,
  params: '{}',
  changes: '[]',
});
const login = (userId: number | null) => ({ event: 'signIn', outcome: 'success', userId, userName: 'desk', ip: '', browser: '', os: '', userAgent: '', msg: '登录成功' });

// As the app reads them (db/connection.ts): the chain hashes times and ids as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

describe('migration 027 scopes the audit logs and the advanced settings', () => {
  for (const dialect of dialects()) {
    it(`[${dialect}] older records get their actor's unit, the chain still checks, newer hashes cover the units`, async () => {
      const target = await createTestDatabase(dialect);
      const db = await openTestKysely<Database>(target);
      try {
        expect(await migrateUpTo(db, dialect, '027')).toBeUndefined();
        const now = Date.now();
        const unit = await db.selectFrom('sysOrg').select('id').where('code', '=', 'DEFAULT').executeTakeFirstOrThrow();
        const user = await db
          .insertInto('sysUser')
          .values({ userName: 'desk', nickName: '前台', passwordHash: 'x', state: 1, roleId: null, orgId: unit.id, createdAt: now, updatedAt: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        // Written as the chain stood before 027: no unit columns.
        await appendToChain(db, 'operation', [operation(user.id, 'old'), operation(null, 'anonymous')] as unknown as OperationEntry[]);
        await appendToChain(db, 'login', [login(user.id), login(null)] as unknown as LoginEntry[]);
        const untyped = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
        await untyped
          .insertInto('hotelAdvanced')
          .values({ name: '京东', endpointUrl: '', appKey: '', appSecret: '', state: 1, remark: '', initialisedAt: null, createdAt: now, updatedAt: now })
          .execute();

        expect(await migrateUpTo(db, dialect)).toBeUndefined();

        expect(await db.selectFrom('sysOperationLog').select(['msg', 'actorOrgId', 'targetOrgId']).orderBy('id').execute()).toEqual([
          { msg: 'old', actorOrgId: unit.id, targetOrgId: null },
          { msg: 'anonymous', actorOrgId: null, targetOrgId: null },
        ]);
        expect(await db.selectFrom('sysLoginLog').select(['userId', 'orgId']).orderBy('id').execute()).toEqual([
          { userId: user.id, orgId: unit.id },
          { userId: null, orgId: null },
        ]);
        expect(await db.selectFrom('hotelAdvanced').select(['name', 'orgId', 'createdBy']).execute()).toEqual([{ name: '京东', orgId: unit.id, createdBy: null }]);
        expect((await checkChainIntegrity(db, 'operation')).ok).toBe(true);
        expect((await checkChainIntegrity(db, 'login')).ok).toBe(true);

        const [fresh] = await appendToChain(db, 'operation', [{ ...operation(user.id, 'new'), actorOrgId: unit.id, targetOrgId: unit.id }]);
        await appendToChain(db, 'login', [{ ...login(user.id), orgId: unit.id }]);
        expect(await checkChainIntegrity(db, 'operation')).toMatchObject({ ok: true, checked: 3 });
        expect(await checkChainIntegrity(db, 'login')).toMatchObject({ ok: true, checked: 3 });

        // Moving a newer record to another unit (out of a scoped auditor's sight) breaks its hash.
        await db.updateTable('sysOperationLog').set({ targetOrgId: null }).where('id', '=', fresh).execute();
        expect(await checkChainIntegrity(db, 'operation')).toMatchObject({ ok: false, firstBroken: { id: fresh } });
      } finally {
        await db.destroy();
        await target.drop();
      }
    }, 60_000);
  }
});
