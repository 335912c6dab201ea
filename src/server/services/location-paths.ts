/**
 * Location paths ("主楼 / 8F / 0808") and subtrees. A hotel group holds hundreds of thousands of
 * rooms, so a list page reads only the ancestors of its own devices' locations (the tree is three
 * levels deep), in one recursive query, and a subtree filter stays in SQL.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema';
import { notFound } from '../lib/errors';

interface Node {
  id: number;
  parentId: number;
  name: string;
}

export class LocationIndex {
  private readonly byId: Map<number, Node>;
  constructor(nodes: Node[]) {
    this.byId = new Map(nodes.map((node) => [node.id, node]));
  }

  /** Every location (an export of the whole device list reads them once). */
  static async load(db: Kysely<Database>): Promise<LocationIndex> {
    return new LocationIndex(await db.selectFrom('hotelLocation').select(['id', 'parentId', 'name']).execute());
  }

  /**
   * The given locations and their ancestors: enough for the paths of one page of devices. One
   * recursive query (each list call pays a round trip per query, which is what PostgreSQL's
   * throughput is made of), however deep the tree.
   */
  static async of(db: Kysely<Database>, ids: ReadonlyArray<number | null>): Promise<LocationIndex> {
    const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
    if (wanted.length === 0) return new LocationIndex([]);
    const { rows } = await sql<Node>`
      with recursive up(id, parent_id, name) as (
        select id, parent_id, name from hotel_location where id in (${sql.join(wanted)})
        union
        select l.id, l.parent_id, l.name from hotel_location l join up on l.id = up.parent_id
      )
      select id, parent_id, name from up`.execute(db);
    return new LocationIndex(rows);
  }

  /** The location and its ancestors, nearest first; empty for no location. */
  lineOf(id: number | null): number[] {
    const ids: number[] = [];
    for (let node = id === null ? undefined : this.byId.get(id); node; node = this.byId.get(node.parentId)) ids.push(node.id);
    return ids;
  }

  /** 主楼 / 8F / 0808; empty for no location. */
  pathOf(id: number | null): string {
    const names: string[] = [];
    for (let node = id === null ? undefined : this.byId.get(id); node; node = this.byId.get(node.parentId)) names.unshift(node.name);
    return names.join(' / ');
  }
}

/** A device's location is `id` or anywhere under it (a recursive query over hotel_location's parent index). */
export function inLocationSubtree(locationColumn: Expression<number | null>, id: number): Expression<SqlBool> {
  return sql<SqlBool>`${locationColumn} in (with recursive subtree(id) as (select id from hotel_location where id = ${id} union all select child.id from hotel_location child join subtree on child.parent_id = subtree.id) select id from subtree)`;
}

/** Refuses a device location that does not exist. */
export async function assertLocation(db: Kysely<Database>, id: number | null): Promise<void> {
  if (id === null) return;
  const found = await db.selectFrom('hotelLocation').select('id').where('id', '=', id).executeTakeFirst();
  if (!found) throw notFound('位置');
}

/**
 * The hotel (sys_org) a location belongs to: its building's, as floors and rooms follow their
 * building (at most two steps up). Null for no location, or a building without a hotel.
 */
export async function hotelOfLocation(db: Kysely<Database>, id: number | null): Promise<number | null> {
  for (let at = id, steps = 0; at !== null && at !== 0 && steps < 3; steps += 1) {
    const node = await db.selectFrom('hotelLocation').select(['parentId', 'kind', 'orgId']).where('id', '=', at).executeTakeFirst();
    if (!node) return null;
    if (node.kind === 'building') return node.orgId;
    at = node.parentId;
  }
  return null;
}
