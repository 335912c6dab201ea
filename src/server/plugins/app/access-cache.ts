/**
 * This instance's copy of what the authorization hook reads on every request (docs/architecture.md,
 * access cache): the organisation tree's subtrees, the units of each custom-scope role, and each
 * role's state with the API paths it holds. It is exact rather than timed: every change of those
 * rows runs through `change`, which announces it in its own transaction; this instance drops its
 * copy when the change ends, the others when the announcement reaches them (PostgreSQL NOTIFY on
 * ACCESS_CHANNEL, sent by the server only at commit; an in-process signal on SQLite). An instance
 * that cannot prove it hears every announcement (its listening connection broke, or has not been
 * proven lately) reads from the database, as without a cache, and drops its copy.
 */
import { EventEmitter } from 'node:events';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { Dialect } from '../../db/dialect';
import { LISTEN_PROBE_MS, type DatabaseHandle } from '../../db/connection';
import { customRoots, readOrgTree, scopeOf, subtreeReader, type DataScope, type ScopeHolder, type ScopeUnits } from '../../lib/data-scope';

/** The PostgreSQL channel changes of access are announced on (apart from the consoles' events). */
export const ACCESS_CHANNEL = 'access_changes';

/**
 * How long after its last proof the listening connection is trusted: past it a change may have
 * been announced unheard (a connection dead without a word), so the copy is not used.
 */
export const ACCESS_LEASE_MS = LISTEN_PROBE_MS * 2 + 1_000;

/** SQLite's announcement: every cache of this process hears it (one database file is one process's). */
const localChanges = new EventEmitter();
localChanges.setMaxListeners(0);

/** A role as the authorization hook weighs it: its state and the API paths of the resources it holds. */
interface RoleGrants {
  state: number | null;
  paths: ReadonlySet<string>;
}

/**
 * One generation of the copy, by what it answers (`tree`, `guarded`, `below:<unit>`,
 * `custom:<role>`, `role:<role>`): replaced whole when a change is announced, so a read begun
 * before lands in the generation thrown away.
 */
type Entries = Map<string, Promise<unknown>>;

export interface ResourceCheck {
  /** Some resource guards the path. */
  guarded: boolean;
  /** The role is enabled and holds that resource. */
  granted: boolean;
}

export class AccessCache {
  private entries: Entries = new Map();
  /** Changes of this instance under way: until each ends, its rows may or may not be committed. */
  private changing = 0;
  /** PostgreSQL: the listening connection's last proof; 0 when it is down. SQLite needs none. */
  private provenAt = 0;
  private unlisten: (() => Promise<void>) | null = null;
  private readonly onAnnounced = () => this.drop();
  private readonly db: Kysely<Database>;
  private readonly dialect: Dialect;

  constructor(private readonly database: Pick<DatabaseHandle, 'db' | 'dialect' | 'listen'>) {
    this.db = database.db;
    this.dialect = database.dialect;
  }

  /** Starts hearing announcements: on PostgreSQL the copy is used only once the channel is listened to. */
  async start(): Promise<void> {
    if (this.dialect !== 'postgres') {
      localChanges.on('change', this.onAnnounced);
      return;
    }
    if (!this.database.listen) return;
    this.unlisten = await this.database.listen(ACCESS_CHANNEL, this.onAnnounced, (provenAt) => this.proven(provenAt));
  }

  async stop(): Promise<void> {
    localChanges.off('change', this.onAnnounced);
    this.provenAt = 0;
    if (this.unlisten) await this.unlisten();
    this.unlisten = null;
  }

  /** The caller's data scope, its units from the copy. */
  scopeOf(holder: ScopeHolder): Promise<DataScope> {
    return scopeOf(this.dialect, holder, this.units);
  }

  /** Whether a resource guards `path` and the role holds it. */
  async resource(roleId: number, path: string): Promise<ResourceCheck> {
    const [guarded, role] = await Promise.all([this.cached('guarded', () => this.readGuarded()), this.cached(`role:${roleId}`, () => this.readRole(roleId))]);
    return { guarded: guarded.has(path), granted: role.state === 1 && role.paths.has(path) };
  }

  /**
   * Runs a change of what the copy holds (the organisation tree, a role's state, scope, units or
   * grants, a resource's path) in a transaction that announces it. Meanwhile this instance reads
   * from the database; when it ends, committed or not, the copy is dropped.
   */
  async change<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    this.changing += 1;
    this.drop();
    try {
      return await this.db.transaction().execute(async (trx) => {
        const result = await work(trx);
        if (this.dialect === 'postgres') await sql`select pg_notify(${ACCESS_CHANNEL}, '')`.execute(trx);
        return result;
      });
    } finally {
      this.changing -= 1;
      this.drop();
      if (this.dialect !== 'postgres') localChanges.emit('change');
    }
  }

  /** The copy may be used: no change of this instance is under way and every announcement is heard. */
  private get current(): boolean {
    if (this.changing > 0) return false;
    return this.dialect !== 'postgres' || Date.now() - this.provenAt < ACCESS_LEASE_MS;
  }

  private proven(provenAt: number | null): void {
    // A connection down, or a lease run out, may have let an announcement pass unheard.
    if (provenAt === null || Date.now() - this.provenAt >= ACCESS_LEASE_MS) this.drop();
    this.provenAt = provenAt ?? 0;
  }

  private drop(): void {
    this.entries = new Map();
  }

  private readonly units: ScopeUnits = {
    below: (orgId) => this.cached(`below:${orgId}`, async () => (await this.subtrees())([orgId])),
    custom: (roleId) =>
      this.cached(`custom:${roleId}`, async () => {
        const [reader, roots] = await Promise.all([this.subtrees(), customRoots(this.db, roleId)]);
        return reader(roots);
      }),
  };

  private subtrees() {
    return this.cached('tree', async () => subtreeReader(await readOrgTree(this.db)));
  }

  /** From the copy, or read and kept in the generation the read began in (kept only while the copy is current). */
  private cached<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (!this.current) return read();
    const entries = this.entries;
    const kept = entries.get(key) as Promise<T> | undefined;
    if (kept) return kept;
    const reading = read();
    entries.set(key, reading);
    // A failed read is not kept: the next call reads again.
    reading.catch(() => {
      if (entries.get(key) === reading) entries.delete(key);
    });
    return reading;
  }

  private async readGuarded(): Promise<ReadonlySet<string>> {
    const rows = await this.db.selectFrom('sysResource').select('path').where('path', '<>', '').execute();
    return new Set(rows.map((row) => row.path));
  }

  private async readRole(roleId: number): Promise<RoleGrants> {
    const [role, held] = await Promise.all([
      this.db.selectFrom('sysRole').select('state').where('id', '=', roleId).executeTakeFirst(),
      this.db
        .selectFrom('sysRoleAuth as a')
        .innerJoin('sysResource as r', 'r.id', 'a.resource')
        .select('r.path')
        .where('a.type', '=', 'resource')
        .where('a.roleId', '=', roleId)
        .execute(),
    ]);
    return { state: role?.state ?? null, paths: new Set(held.map((row) => row.path)) };
  }
}
