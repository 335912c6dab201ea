/**
 * Data permission (docs/architecture.md, data scope): which rows a caller may see and change, from
 * their unit and their role's data scope. The authorization hook builds the value once per request
 * (`scopeOf`) and keeps it on the request; routes pass it to every repository function of scoped
 * data, which turns it into a parameterised predicate (`inScope`). The value is branded: only this
 * module makes one, so a repository function that takes a `DataScope` cannot be called with a
 * look-alike, and one that forgets it does not compile. No SQL text ever comes from a request.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema';
import type { Dialect } from '../db/dialect';
import type { DataScopeKind } from '../../contract/constants';
import { idIn } from './id-list';

declare const scopeBrand: unique symbol;

interface ScopeFields {
  readonly kind: DataScopeKind;
  readonly userId: number;
  /** How the unit list is bound (null for scope all, which binds none). */
  readonly dialect: Dialect | null;
  /** The units whose rows are in scope (every unit for `all`; the user's own unit for `self`). */
  readonly orgIds: ReadonlySet<number>;
  /** The units under which new units, users, buildings and devices may be placed: covered with their subtree. */
  readonly subtreeIds: ReadonlySet<number>;
}
export type DataScope = ScopeFields & { readonly [scopeBrand]: true };

const make = (fields: ScopeFields) => fields as DataScope;

/** Every row: the scope of a role of scope all and of the built-in administrator. */
const everything = (userId: number): DataScope => make({ kind: 'all', userId, dialect: null, orgIds: new Set(), subtreeIds: new Set() });

/**
 * The machinery's own reads, on behalf of no caller (the audit trail loading a record it has already
 * let through, start-up jobs): named, so every unscoped read of scoped data can be found by it.
 */
export const SYSTEM_SCOPE: DataScope = everything(0);

export interface ScopeHolder {
  userId: number;
  orgId: number | null;
  roleId: number;
  builtin: boolean;
  dataScope: string;
}

type TreeRows = ReadonlyArray<{ id: number; pid: number | null }>;

/** Answers the unit ids at and below each of `roots` in the tree of these (id, pid) rows, which it indexes once. */
export function subtreeReader(units: TreeRows): (roots: Iterable<number>) => Set<number> {
  const children = new Map<number, number[]>();
  for (const unit of units) {
    if (unit.pid === null) continue;
    const list = children.get(unit.pid) ?? [];
    list.push(unit.id);
    children.set(unit.pid, list);
  }
  const known = new Set(units.map((unit) => unit.id));
  return (roots) => {
    const found = new Set<number>();
    const stack = [...roots].filter((id) => known.has(id));
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (found.has(id)) continue;
      found.add(id);
      stack.push(...(children.get(id) ?? []));
    }
    return found;
  };
}

/** The unit ids at and below each of `roots`, from the tree's (id, pid) rows. */
export const subtreesOf = (units: TreeRows, roots: Iterable<number>): Set<number> => subtreeReader(units)(roots);

/** The organisation tree as (id, pid) rows, which every subtree scope is computed from. */
export const readOrgTree = (db: Kysely<Database>) => db.selectFrom('sysOrg').select(['id', 'pid']).execute();

/** The units a role of scope custom names (each stands for its subtree). */
export const customRoots = async (db: Kysely<Database>, roleId: number): Promise<number[]> =>
  (await db.selectFrom('sysRoleOrg').select('orgId').where('roleId', '=', roleId).execute()).map((row) => row.orgId);

/**
 * Where a scope's units come from: the database at each call (`unitsReadNow`) or this instance's
 * cache of them (plugins/app/access-cache.ts).
 */
export interface ScopeUnits {
  /** The unit and every unit below it. */
  below(orgId: number): Promise<ReadonlySet<number>>;
  /** The units a role of scope custom names, each with its subtree. */
  custom(roleId: number): Promise<ReadonlySet<number>>;
}

/** Units read from the database now; the tree once, and only if needed, for every scope built with the same value (a batch). */
export function unitsReadNow(db: Kysely<Database>): ScopeUnits {
  let tree: Promise<(roots: Iterable<number>) => Set<number>> | undefined;
  const subtrees = () => (tree ??= readOrgTree(db).then(subtreeReader));
  return {
    below: async (orgId) => (await subtrees())([orgId]),
    custom: async (roleId) => {
      const [reader, roots] = await Promise.all([subtrees(), customRoots(db, roleId)]);
      return reader(roots);
    },
  };
}

/**
 * The caller's scope: `all` for the built-in role and roles of scope all; otherwise the units the
 * role's scope names, from `units` (read now, or cached until a change of tree or role is
 * announced), so a change of scope or tree applies at the next call.
 * A scope it does not know, or a user without a unit, sees nothing: deny by default.
 */
export async function scopeOf(dialect: Dialect, holder: ScopeHolder, units: ScopeUnits): Promise<DataScope> {
  const { userId } = holder;
  const kind = (holder.builtin ? 'all' : holder.dataScope) as DataScopeKind;
  if (kind === 'all') return everything(userId);
  const none = make({ kind, userId, dialect, orgIds: new Set(), subtreeIds: new Set() });
  const own = holder.orgId;
  switch (kind) {
    case 'self':
      return make({ kind, userId, dialect, orgIds: new Set(own === null ? [] : [own]), subtreeIds: new Set() });
    case 'org':
      return make({ kind, userId, dialect, orgIds: new Set(own === null ? [] : [own]), subtreeIds: new Set() });
    case 'orgAndBelow':
    case 'custom': {
      const subtree = kind === 'custom' ? await units.custom(holder.roleId) : own === null ? new Set<number>() : await units.below(own);
      return make({ kind, userId, dialect, orgIds: subtree, subtreeIds: subtree });
    }
    default:
      return none;
  }
}

/** The unit is in scope: its rows may be read and changed. */
export const hasOrg = (scope: DataScope, orgId: number | null): boolean => scope.kind === 'all' || (orgId !== null && scope.orgIds.has(orgId));

/** Something new (a unit, a user, a building, a device) may be placed under `orgId`. */
export const mayPlaceUnder = (scope: DataScope, orgId: number): boolean => scope.kind === 'all' || scope.subtreeIds.has(orgId);

/** A row with this unit and creator is in scope. `self` covers the rows the user created. */
export const holdsRow = (scope: DataScope, row: { orgId: number | null; createdBy?: number | null }): boolean =>
  scope.kind === 'all' || (scope.kind === 'self' ? row.createdBy === scope.userId : row.orgId !== null && scope.orgIds.has(row.orgId));

/** Where a scoped table keeps a row's unit and the user it belongs to (its creator, or for users the user itself). */
export interface ScopeColumns {
  /** Several columns: a row is in scope when any of them is (an audit record: its actor's unit or its target's). */
  org: string | readonly string[];
  /** Compared with the caller's id under `self`; without it `self` sees none of the table's rows. */
  self?: string;
}

/**
 * The scope as a predicate on `columns`, or null when it restricts nothing (scope all: the query
 * keeps the plan it had before scopes). Unit ids travel as one bound list parameter.
 */
export function scopePredicate(scope: DataScope, columns: ScopeColumns): Expression<SqlBool> | null {
  if (scope.kind === 'all') return null;
  if (scope.kind === 'self') return columns.self ? sql<SqlBool>`${sql.ref(columns.self)} = ${scope.userId}` : sql<SqlBool>`1 = 0`;
  if (scope.orgIds.size === 0) return sql<SqlBool>`1 = 0`;
  if (scope.dialect === null) throw new Error('a narrowed scope carries its dialect (scopeOf)');
  const ids = [...scope.orgIds];
  const dialect = scope.dialect;
  // One unit (a hotel's staff) is an equality, which the planner answers from an (org, id) index in
  // the list's id order; a list of units is one bound array whatever its length.
  const one = (column: string) => (ids.length === 1 ? sql<SqlBool>`${sql.ref(column)} = ${ids[0]}` : idIn(dialect, column, ids));
  if (typeof columns.org === 'string') return one(columns.org);
  return sql<SqlBool>`(${sql.join(columns.org.map(one), sql` or `)})`;
}

/**
 * The units of a scope narrowed to several of them (a region, a custom set), which a list may read
 * unit by unit; null when its predicate is already one index range or none (scope all, self, one
 * unit, no unit). PostgreSQL cannot walk an (org, id) index in id order for a list of units: it
 * reads every row of the units and sorts them, or the table in id order skipping other units' rows.
 */
export const unitsOfScope = (scope: DataScope): readonly number[] | null => (scope.kind === 'all' || scope.kind === 'self' || scope.orgIds.size < 2 ? null : [...scope.orgIds]);

interface Filterable {
  where(expression: Expression<SqlBool>): unknown;
}

/** Restricts a query to the scope (`query.$call(inScope(scope, columns))`). */
export function inScope(scope: DataScope, columns: ScopeColumns) {
  const predicate = scopePredicate(scope, columns);
  return <Q extends Filterable>(query: Q): Q => (predicate === null ? query : (query.where(predicate) as Q));
}
