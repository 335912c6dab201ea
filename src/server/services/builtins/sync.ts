/**
 * The built-in catalogue (catalogue.ts: menus with their resources, dictionaries, schedules) kept in
 * step with the database at every start. Each built-in is inserted once in a database's life: a
 * marker row in sys_builtin remembers it, so an upgrade adds what a newer version brings, and what
 * an operator later edited is never added back. Existing rows with the same natural key (menu path,
 * resource path or menu+type, dictionary code+value, schedule name) are adopted, not duplicated.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { fieldLabels, seedAreas, seedDictionaries, seedSchedules, type SeedArea, type SeedSchedule } from './catalogue';
import { nextRunAfter } from '../../lib/cron';

export interface BuiltinCatalog {
  areas: SeedArea[];
  dictionaries: Record<string, Array<{ label: string; value: string }>>;
  schedules: SeedSchedule[];
}

export const builtinCatalog: BuiltinCatalog = { areas: seedAreas, dictionaries: seedDictionaries, schedules: seedSchedules };

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Adds every unmarked built-in, adopting an equal existing row (a database seeded before markers
 * existed, or a row a migration wrote) instead of inserting it. Answers how many built-ins were
 * newly marked.
 */
export async function syncBuiltins(db: Db, catalog: BuiltinCatalog = builtinCatalog): Promise<number> {
  const marked = new Set((await db.selectFrom('sysBuiltin').select('key').execute()).map((row) => row.key));
  const now = Date.now();
  const stamp = { createdAt: now, updatedAt: now };
  let added = 0;
  /** Marks a built-in once it exists: `find` finds it, or else `create` creates it. */
  const once = async <T>(key: string, find: () => Promise<T | undefined>, create: () => Promise<T>): Promise<T | undefined> => {
    const found = await find();
    if (marked.has(key)) return found;
    const row = found ?? (await create());
    await db.insertInto('sysBuiltin').values({ key, createdAt: now }).execute();
    marked.add(key);
    added += 1;
    return row;
  };

  for (const [code, entries] of Object.entries(catalog.dictionaries)) {
    for (const [index, entry] of entries.entries()) {
      await once(
        `dict:${code}:${entry.value}`,
        () => db.selectFrom('sysDict').select('id').where('code', '=', code).where('value', '=', entry.value).executeTakeFirst(),
        () =>
          db
            .insertInto('sysDict')
            .values({ code, label: entry.label, value: entry.value, sort: index + 1, state: 1, remark: '', ...stamp })
            .returning('id')
            .executeTakeFirstOrThrow(),
      );
    }
  }

  const areaCount = await db
    .selectFrom('sysMenu')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('pid', 'is', null)
    .executeTakeFirstOrThrow();
  for (const [areaIndex, area] of catalog.areas.entries()) {
    const parent = await once(
      `menu:${area.path}`,
      () => db.selectFrom('sysMenu').select('id').where('pid', 'is', null).where('path', '=', area.path).executeTakeFirst(),
      () =>
        db
          .insertInto('sysMenu')
          .values({ pid: null, name: area.name, path: area.path, element: '', icon: area.icon, sort: Number(areaCount.n) + areaIndex + 1, state: 1, isAuth: 1, ...stamp })
          .returning('id')
          .executeTakeFirstOrThrow(),
    );
    // An area an operator moved away keeps its children where they are; new ones have no home.
    if (!parent) continue;
    for (const [menuIndex, menu] of area.children.entries()) {
      const child = await once(
        `menu:${menu.path}`,
        () => db.selectFrom('sysMenu').select('id').where('path', '=', menu.path).where('element', '=', menu.element).executeTakeFirst(),
        () =>
          db
            .insertInto('sysMenu')
            .values({ pid: parent.id, name: menu.name, path: menu.path, element: menu.element, icon: menu.icon, sort: menuIndex + 1, state: 1, isAuth: 1, ...stamp })
            .returning('id')
            .executeTakeFirstOrThrow(),
      );
      if (!child) continue;
      for (const resource of menu.resources) {
        const path = resource.path ?? '';
        await once(
          `resource:${menu.path}:${resource.type}`,
          () =>
            path
              ? db.selectFrom('sysResource').select('id').where('path', '=', path).executeTakeFirst()
              : db.selectFrom('sysResource').select('id').where('menuId', '=', child.id).where('type', '=', resource.type).executeTakeFirst(),
          async () => {
            const created = await db
              .insertInto('sysResource')
              .values({ menuId: child.id, name: resource.name, type: resource.type, path, remark: '', ...stamp })
              .returning('id')
              .executeTakeFirstOrThrow();
            if (resource.grantedWith) await grantToHoldersOf(db, child.id, resource.grantedWith, created.id);
            return created;
          },
        );
      }
      for (const [fieldName, code] of Object.entries(menu.fields ?? {})) {
        const type = `field_${fieldName}`;
        await once(
          `resource:${menu.path}:${type}`,
          () => db.selectFrom('sysResource').select('id').where('menuId', '=', child.id).where('type', '=', type).executeTakeFirst(),
          async () => {
            const created = await db
              .insertInto('sysResource')
              .values({ menuId: child.id, name: `${menu.name}·${fieldLabels[fieldName] ?? fieldName}`, type, path: '', remark: `字典 ${code}`, ...stamp })
              .returning('id')
              .executeTakeFirstOrThrow();
            const entries = await db.selectFrom('sysDict').select('id').where('code', '=', code).execute();
            for (const entry of entries) await db.insertInto('sysDictResource').values({ resourceId: created.id, dictId: entry.id }).execute();
            return created;
          },
        );
      }
    }
  }

  for (const schedule of catalog.schedules) {
    await once(
      `schedule:${schedule.name}`,
      () => db.selectFrom('sysSchedule').select('id').where('name', '=', schedule.name).executeTakeFirst(),
      () =>
        db
          .insertInto('sysSchedule')
          .values({
            ...schedule,
            params: JSON.stringify(schedule.params),
            state: 1,
            nextRunAt: nextRunAfter(schedule.cron, now),
            lastRunAt: null,
            lastOutcome: '',
            lastMessage: '',
            ...stamp,
          })
          .returning('id')
          .executeTakeFirstOrThrow(),
    );
  }
  return added;
}

/** Gives resource `resourceId` to every role holding the resource of type `type` of menu `menuId`. */
async function grantToHoldersOf(db: Db, menuId: number, type: string, resourceId: number): Promise<void> {
  const holders = await db
    .selectFrom('sysRoleAuth as a')
    .innerJoin('sysResource as r', (join) => join.onRef('r.id', '=', 'a.resource').on('a.type', '=', 'resource'))
    .select('a.roleId')
    .where('r.menuId', '=', menuId)
    .where('r.type', '=', type)
    .execute();
  for (const { roleId } of holders) await db.insertInto('sysRoleAuth').values({ roleId, type: 'resource', resource: resourceId }).execute();
}
