/** Reads for the dictionary screen: entries, and the field resources an entry can be bound to. */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import type { BodyOf, DataOf } from '../../../../contract';
import { notFound } from '../../../lib/errors';
import { contains, defaultOrder, fetchPage, given, inOrder, listOrder, ordered, type SortColumn } from '../../../lib/list-query';
import type { DICT_SORT_KEYS } from '../../../../contract/sys/dict';

type Db = Kysely<Database>;
export type DictRecord = DataOf<'/sys/dict/edit'>;

const DICT_COLUMNS = ['id', 'code', 'label', 'value', 'sort', 'state', 'remark', 'version', 'createdAt', 'updatedAt'] as const;
/** Only field resources take their options from the dictionary. */
export const BINDABLE_TYPE_PREFIX = 'field_';

export async function findDict(db: Db, id: number): Promise<DictRecord> {
  const entry = await db.selectFrom('sysDict').select(DICT_COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!entry) throw notFound('字典');
  return entry;
}

/** The sort keys of the dictionary list (contract DICT_SORT_KEYS) and the columns they order by. */
const DICT_SORT: Record<(typeof DICT_SORT_KEYS)[number], SortColumn> = { code: 'code', label: 'label', value: 'value', sort: 'sort', state: 'state' };
/** Entries of one code together, in their own order. */
const DICT_ORDER = defaultOrder(['code', 'code'], ['sort', 'sort'], ['id', 'id']);

type DictFilters = NonNullable<BodyOf<'/sys/dict/inquire'>['params']>;

const filteredDicts = (db: Db, params: DictFilters) =>
  db
    .selectFrom('sysDict')
    .$if(given(params.code), (q) => q.where((eb) => contains(eb.ref('code'), params.code!)))
    .$if(given(params.label), (q) => q.where((eb) => contains(eb.ref('label'), params.label!)))
    .$if(params.state !== undefined, (q) => q.where('state', '=', params.state!));

export function inquireDicts(db: Db, { size, current, params = {}, sort }: BodyOf<'/sys/dict/inquire'>) {
  const filtered = filteredDicts(db, params);
  const order = listOrder(sort, DICT_SORT, DICT_ORDER);
  return fetchPage(
    { size, current },
    () => filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    (limit, offset) => ordered(filtered.select(DICT_COLUMNS), order).limit(limit).offset(offset).execute(),
  );
}

/** Every entry the list's filters match, in the list's order, read in batches (export). */
export function dictsInOrder(db: Db, { params = {}, sort }: BodyOf<'/sys/dict/export'>) {
  const order = listOrder(sort, DICT_SORT, DICT_ORDER);
  return inOrder(order, (seek, limit) =>
    ordered(
      filteredDicts(db, params)
        .$if(seek !== null, (q) => q.where(seek!))
        .select(DICT_COLUMNS),
      order,
    )
      .limit(limit)
      .execute(),
  );
}

/** A page of field resources with their menu's name and whether `dictId` is bound to each. */
export function inquireBindableResources(db: Db, { size, current, params }: BodyOf<'/sys/resource/inquires'>) {
  const filtered = db
    .selectFrom('sysResource as r')
    .innerJoin('sysMenu as m', 'm.id', 'r.menuId')
    .where('r.type', 'like', `${BINDABLE_TYPE_PREFIX}%`)
    .$if(params.menuId !== undefined, (q) => q.where('r.menuId', '=', params.menuId!))
    .$if(given(params.name), (q) => q.where((eb) => contains(eb.ref('r.name'), params.name!)));
  return fetchPage(
    { size, current },
    () => filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    async (limit, offset) => {
      const rows = await filtered
        .select((eb) => [
          'r.id',
          'r.menuId',
          'm.name as menuName',
          'r.name',
          'r.type',
          eb.exists(eb.selectFrom('sysDictResource as dr').select('dr.id').whereRef('dr.resourceId', '=', 'r.id').where('dr.dictId', '=', params.dictId)).as('bound'),
        ])
        .orderBy('r.menuId')
        .orderBy('r.id')
        .limit(limit)
        .offset(offset)
        .execute();
      // SQLite answers EXISTS as 0/1, PostgreSQL as a boolean; the contract wants 0/1.
      return rows.map((row) => ({ ...row, bound: row.bound ? 1 : 0 }));
    },
  );
}
