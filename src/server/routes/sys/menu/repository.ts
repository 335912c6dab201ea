/** Reads of sys_menu: single records, the paged tree or flat list, and a menu's descendants. */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import type { BodyOf, DataOf } from '../../../../contract';
import type { MenuNode } from '../../../../contract/sys/menu';
import { notFound } from '../../../lib/errors';
import { contains, fetchPage, given } from '../../../lib/list-query';

type Db = Kysely<Database>;
export type MenuRecord = DataOf<'/sys/menu/edit'>;

const MENU_COLUMNS = ['id', 'pid', 'name', 'path', 'element', 'icon', 'sort', 'state', 'isAuth', 'version', 'createdAt', 'updatedAt'] as const;

export async function findMenu(db: Db, id: number, what = '菜单'): Promise<MenuRecord> {
  const menu = await db.selectFrom('sysMenu').select(MENU_COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!menu) throw notFound(what);
  return menu;
}

/** Ids of every menu below the given ones (children, grandchildren, ...). */
export async function descendantIds(db: Db, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    // UNION (not UNION ALL) stops on a repeated row, so even a cycle in stored data terminates.
    .withRecursive('tree(id)', (qb) =>
      qb
        .selectFrom('sysMenu')
        .select('id')
        .where('pid', 'in', ids)
        .union(qb.selectFrom('sysMenu as m').innerJoin('tree', 'tree.id', 'm.pid').select('m.id')),
    )
    .selectFrom('tree')
    .select('id')
    .execute();
  return new Set(rows.map((row) => row.id));
}

function nest(roots: MenuRecord[], descendants: MenuRecord[]): MenuNode[] {
  const children = new Map<number, MenuNode[]>();
  const nodes = new Map<number, MenuNode>();
  for (const menu of [...roots, ...descendants]) nodes.set(menu.id, { ...menu });
  for (const menu of descendants) {
    const siblings = children.get(menu.pid!) ?? [];
    siblings.push(nodes.get(menu.id)!);
    children.set(menu.pid!, siblings);
  }
  for (const [pid, list] of children) nodes.get(pid)!.children = list;
  return roots.map((root) => nodes.get(root.id)!);
}

/**
 * Without filters: a page of top-level menus with all their descendants nested under `children`.
 * With filters: the matching menus as a flat page.
 */
export async function inquireMenus(db: Db, { size, current, params = {} }: BodyOf<'/sys/menu/inquire'>) {
  const filtering = given(params.name) || params.state !== undefined;
  const filtered = db
    .selectFrom('sysMenu')
    .$if(!filtering, (q) => q.where('pid', 'is', null))
    .$if(given(params.name), (q) => q.where((eb) => contains(eb.ref('name'), params.name!)))
    .$if(params.state !== undefined, (q) => q.where('state', '=', params.state!));
  const count = () => filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();

  if (filtering) {
    return fetchPage({ size, current }, count, (limit, offset) =>
      filtered.select(MENU_COLUMNS).orderBy('id').limit(limit).offset(offset).execute(),
    );
  }
  return fetchPage({ size, current }, count, async (limit, offset) => {
    const roots = await filtered.select(MENU_COLUMNS).orderBy('sort').orderBy('id').limit(limit).offset(offset).execute();
    const below = [...(await descendantIds(db, roots.map((root) => root.id)))];
    const descendants = below.length
      ? await db.selectFrom('sysMenu').select(MENU_COLUMNS).where('id', 'in', below).orderBy('sort').orderBy('id').execute()
      : [];
    return nest(roots, descendants);
  });
}
