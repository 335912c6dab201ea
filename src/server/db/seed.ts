/**
 * First-start seed. Runs in one transaction and only on an empty database, so a second start (or a
 * second instance starting at the same moment) reuses what is there and seeds nothing twice.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema';
import { isUniqueViolation } from './connection';
import { fieldLabels, ADMIN_NICK_NAME, ADMIN_ROLE_NAME, ADMIN_USER_NAME, seedAreas, seedDictionaries, seedSchedules } from './seed-data';
import { nextRunAfter } from '../lib/cron';

export interface SeedResult {
  seeded: boolean;
}

export async function seedIfEmpty(db: Kysely<Database>, adminPasswordHash: () => Promise<string>): Promise<SeedResult> {
  const existing = await db.selectFrom('sysRole').select('id').limit(1).executeTakeFirst();
  if (existing) return { seeded: false };
  const passwordHash = await adminPasswordHash();
  try {
    await db.transaction().execute(async (trx) => {
      const now = Date.now();
      const audit = { createdAt: now, updatedAt: now };

      const dictIds = new Map<string, number[]>();
      for (const [code, entries] of Object.entries(seedDictionaries)) {
        const ids: number[] = [];
        for (const [index, entry] of entries.entries()) {
          const row = await trx
            .insertInto('sysDict')
            .values({ code, label: entry.label, value: entry.value, sort: index + 1, state: 1, remark: '', ...audit })
            .returning('id')
            .executeTakeFirstOrThrow();
          ids.push(row.id);
        }
        dictIds.set(code, ids);
      }

      for (const [areaIndex, area] of seedAreas.entries()) {
        const parent = await trx
          .insertInto('sysMenu')
          .values({ pid: null, name: area.name, path: area.path, element: '', icon: area.icon, sort: areaIndex + 1, state: 1, isAuth: 1, ...audit })
          .returning('id')
          .executeTakeFirstOrThrow();
        for (const [menuIndex, menu] of area.children.entries()) {
          const child = await trx
            .insertInto('sysMenu')
            .values({ pid: parent.id, name: menu.name, path: menu.path, element: menu.element, icon: menu.icon, sort: menuIndex + 1, state: 1, isAuth: 1, ...audit })
            .returning('id')
            .executeTakeFirstOrThrow();
          for (const resource of menu.resources) {
            await trx
              .insertInto('sysResource')
              .values({ menuId: child.id, name: resource.name, type: resource.type, path: resource.path ?? '', remark: '', ...audit })
              .execute();
          }
          for (const [fieldName, code] of Object.entries(menu.fields ?? {})) {
            const resource = await trx
              .insertInto('sysResource')
              .values({ menuId: child.id, name: `${menu.name}·${fieldLabels[fieldName] ?? fieldName}`, type: `field_${fieldName}`, path: '', remark: `字典 ${code}`, ...audit })
              .returning('id')
              .executeTakeFirstOrThrow();
            for (const dictId of dictIds.get(code) ?? []) {
              await trx.insertInto('sysDictResource').values({ resourceId: resource.id, dictId }).execute();
            }
          }
        }
      }

      const role = await trx
        .insertInto('sysRole')
        .values({ name: ADMIN_ROLE_NAME, remark: '内置角色，拥有全部权限', state: 1, builtin: 1, ...audit })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('sysUser')
        .values({ userName: ADMIN_USER_NAME, nickName: ADMIN_NICK_NAME, passwordHash, state: 1, roleId: role.id, ...audit })
        .execute();

      for (const schedule of seedSchedules) {
        await trx
          .insertInto('sysSchedule')
          .values({
            ...schedule,
            params: JSON.stringify(schedule.params),
            state: 1,
            nextRunAt: nextRunAfter(schedule.cron, now),
            lastRunAt: null,
            lastOutcome: '',
            lastMessage: '',
            ...audit,
          })
          .execute();
      }
    });
  } catch (error) {
    // Another instance seeded first: its data stands.
    if (isUniqueViolation(error)) return { seeded: false };
    throw error;
  }
  return { seeded: true };
}
