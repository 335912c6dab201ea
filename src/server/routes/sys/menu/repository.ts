/** Reads of sys_menu: single records, the paged tree or flat list, and a menu's descendants. */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import type { BodyOf, DataOf } from '../../../../contract';
import type { MenuNode } from '../../../../contract/sys/menu';
import { notFound } from '../../../lib/errors';
import { contains, defaultOrder, fetchPage, given, listOrder, ordered, type SortColumn } from '../../../lib/list-query';
import type { MENU_SORT_KEYS } from '../../../../contract/sys/menu';

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

/** The sort keys of the menu list (contract MENU_SORT_KEYS) and the columns they order by. */
const MENU_SORT: Record<(typeof MENU_SORT_KEYS)[number], SortColumn> = { name: 'name', path: 'path', sort: 'sort', state: 'state' };
const TREE_ORDER = defaultOrder(['sort', 'sort'], ['id', 'id']);
const FLAT_ORDER = defaultOrder(['id', 'id']);

/**
 * Without filters: a page of top-level menus with all their descendants nested under `children`,
 * siblings in the same order as the roots. With filters: the matching menus as a flat page.
 */
export async function inquireMenus(db: Db, { size, current, params = {}, sort }: BodyOf<'/sys/menu/inquire'>) {
  const filtering = given(params.name) || params.state !== undefined;
  const filtered = db
    .selectFrom('sysMenu')
    .$if(!filtering, (q) => q.where('pid', 'is', null))
    .$if(given(params.name), (q) => q.where((eb) => contains(eb.ref('name'), params.name!)))
    .$if(params.state !== undefined, (q) => q.where('state', '=', params.state!));
  const count = () => filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();

  if (filtering) {
    const order = listOrder(sort, MENU_SORT, FLAT_ORDER);
    return fetchPage({ size, current }, count, (limit, offset) => ordered(filtered.select(MENU_COLUMNS), order).limit(limit).offset(offset).execute());
  }
  const order = listOrder(sort, MENU_SORT, TREE_ORDER);
  return fetchPage({ size, current }, count, async (limit, offset) => {
    const roots = await ordered(filtered.select(MENU_COLUMNS), order).limit(limit).offset(offset).execute();
    const below = [
      ...(await descendantIds(
        db,
        roots.map((root) => root.id),
      )),
    ];
    const descendants = below.length ? await ordered(db.selectFrom('sysMenu').select(MENU_COLUMNS).where('id', 'in', below), order).execute() : [];
    return nest(roots, descendants);
  });
}
