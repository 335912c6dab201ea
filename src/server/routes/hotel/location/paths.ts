/** Location paths ("主楼 / 8F / 0808") and subtrees, from the whole tree: a hotel has hundreds of rows, not millions. */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { notFound } from '../../../lib/errors';

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

  static async load(db: Kysely<Database>): Promise<LocationIndex> {
    return new LocationIndex(await db.selectFrom('hotelLocation').select(['id', 'parentId', 'name']).execute());
  }

  has(id: number): boolean {
    return this.byId.has(id);
  }

  /** 主楼 / 8F / 0808; empty for no location. */
  pathOf(id: number | null): string {
    const names: string[] = [];
    for (let node = id === null ? undefined : this.byId.get(id); node; node = this.byId.get(node.parentId)) names.unshift(node.name);
    return names.join(' / ');
  }

  /** The location and everything under it. */
  subtree(id: number): number[] {
    const ids = [id];
    for (let i = 0; i < ids.length; i += 1) for (const node of this.byId.values()) if (node.parentId === ids[i]) ids.push(node.id);
    return ids;
  }
}

/** Refuses a device location that does not exist. */
export async function assertLocation(db: Kysely<Database>, id: number | null): Promise<void> {
  if (id === null) return;
  const found = await db.selectFrom('hotelLocation').select('id').where('id', '=', id).executeTakeFirst();
  if (!found) throw notFound('位置');
}
