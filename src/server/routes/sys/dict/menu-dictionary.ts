/**
 * `/sys/dict/resource/inquire {menuId}`: the enabled dictionary entries bound to a menu's field
 * resources. Every screen reads its select options and value labels from here. Any signed-in user
 * may ask, but only for a menu they can see. Exports and imports read the same entries, so a file
 * says 启用 where the screen does.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { currentUser, defineRoute, ok } from '../../../lib/route';
import { forbidden } from '../../../lib/errors';
import { authorisedMenu } from '../verify/authority';

const FIELD_PREFIX = 'field_';

export async function menuDictEntries(db: Kysely<Database>, menuId: number) {
  const rows = await db
    .selectFrom('sysDictResource as dr')
    .innerJoin('sysResource as r', 'r.id', 'dr.resourceId')
    .innerJoin('sysDict as d', 'd.id', 'dr.dictId')
    .select(['r.id as resourceId', 'r.type', 'd.id as dictId', 'd.code', 'd.label', 'd.value', 'd.sort'])
    .where('r.menuId', '=', menuId)
    .where('r.type', 'like', `${FIELD_PREFIX}%`)
    .where('d.state', '=', 1)
    .orderBy('r.id')
    .orderBy('d.sort')
    .orderBy('d.id')
    .execute();
  return rows.map(({ type, ...row }) => ({ ...row, field: type.slice(FIELD_PREFIX.length) }));
}

export interface ViewLabels {
  /** The label of a stored value, or the value itself when the dictionary has none (as on screen). */
  labelOf(field: string, value: unknown): string;
  /** The stored value a label (or the value itself) stands for; undefined when neither matches. */
  valueOf(field: string, text: string): string | undefined;
  /** The labels of a field, in dictionary order. */
  labelsOf(field: string): string[];
}

/** The menu dictionary of the screen whose menu element is `element`. */
export async function viewLabels(db: Kysely<Database>, element: string): Promise<ViewLabels> {
  const menu = await db.selectFrom('sysMenu').select('id').where('element', '=', element).orderBy('id').executeTakeFirst();
  const entries = menu ? await menuDictEntries(db, menu.id) : [];
  const of = (field: string) => entries.filter((entry) => entry.field === field);
  return {
    labelOf: (field, value) => {
      if (value === null || value === undefined) return '';
      // Stored values are numbers or strings; the dictionary keeps their text.
      const raw = typeof value === 'string' ? value : JSON.stringify(value);
      return of(field).find((entry) => entry.value === raw)?.label ?? raw;
    },
    valueOf: (field, text) => {
      const options = of(field);
      return (options.find((entry) => entry.label === text) ?? options.find((entry) => entry.value === text))?.value;
    },
    labelsOf: (field) => of(field).map((entry) => entry.label),
  };
}

export function menuDictionaryRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  defineRoute(app, '/sys/dict/resource/inquire', 'session', async (request) => {
    const me = currentUser(request);
    const { menuId } = request.body;
    if (!me.builtin) {
      const visible = await authorisedMenu(app.db, me);
      if (!visible.some((menu) => menu.id === menuId)) throw forbidden('没有权限查看该菜单的数据字典');
    }
    return ok(await menuDictEntries(app.db, menuId));
  });
  done();
}
