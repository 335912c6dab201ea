/**
 * Server-side prepared statements for the SQL a server runs again and again (issue 10).
 * PostgreSQL parses and plans every unnamed statement anew: for a list page's count, page and
 * lookups planning took about as long as running them, and a heartbeat's lookup is planned
 * thousands of times a second. As the JDBC driver does (prepareThreshold 5), a statement text
 * run `threshold` times in this process is sent as a named statement from then on: each pooled
 * connection parses it once and PostgreSQL keeps its plan (its plan cache still weighs a generic
 * plan against custom ones per statement).
 *
 * A statement that matches a text pattern (`like $n`: the lists' searches) is never named. Its
 * plan hangs on the pattern, which a generic plan cannot see: after five runs PostgreSQL switched
 * a hotel-scoped device search to one that reads every device of the hotel (4,000 probes of the
 * search table) instead of the trigram index's 200 matches, and a region's to a parallel plan
 * whose workers each call starts. Unnamed, every call is planned for its pattern and its units.
 *
 * At most `max` texts are named, so each connection holds at most that many statements; a text
 * first repeated after that stays unnamed. The counts forget everything when they reach
 * COUNTED_TEXTS distinct texts (statements whose text varies, such as IN lists, never pile up).
 * `PG_PREPARED_STATEMENTS=off` turns this off, for a PgBouncer in transaction mode older than
 * 1.21, which cannot carry named statements from one transaction to the next.
 */
import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';

const COUNTED_TEXTS = 10_000;

/** A pattern match whose pattern is a parameter: planned for its value on every call (see above). */
const MATCHES_A_PATTERN = /\blike\s+\$\d/i;

export interface PreparedStatementOptions {
  threshold: number;
  max: number;
}

/** Names statement texts once they have been run `threshold` times (see above). */
export class StatementNames {
  private readonly counts = new Map<string, number>();
  private readonly names = new Map<string, string>();

  constructor(private readonly options: PreparedStatementOptions) {}

  /** The name to run `text` under, or undefined to run it unnamed. */
  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= this.options.max || MATCHES_A_PATTERN.test(text)) return known;
    const runs = (this.counts.get(text) ?? 0) + 1;
    if (runs < this.options.threshold) {
      if (this.counts.size >= COUNTED_TEXTS) this.counts.clear();
      this.counts.set(text, runs);
      return undefined;
    }
    this.counts.delete(text);
    // A digest of the whole text: one name is never given to two texts.
    const name = `s_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    this.names.set(text, name);
    return name;
  }

  /** How many texts are named (for tests and metrics). */
  get size(): number {
    return this.names.size;
  }
}

type Query = PoolClient['query'];

/** Every client the pool opens runs repeated statement texts (with values, as Kysely sends them) as named statements. */
export function prepareRepeatedStatements(pool: Pool, options: PreparedStatementOptions = { threshold: 5, max: 200 }): StatementNames {
  const names = new StatementNames(options);
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const [text, values, callback] = args;
      if (typeof text === 'string' && Array.isArray(values) && callback === undefined) {
        const name = names.nameOf(text);
        if (name !== undefined) return query({ name, text, values });
      }
      return query(...args);
    }) as Query;
  });
  return names;
}
