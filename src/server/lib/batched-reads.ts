/**
 * Reads by key that arrive in the same turn of the event loop, answered by one query for all of
 * them (as DataLoader does). Each read still sees the database as it is after it was asked: the
 * batch runs once the current turn's requests have all been parsed, never from a cache.
 *
 * Why: on PostgreSQL a heartbeat's lookup by serial number is a round trip, and under thousands of
 * heartbeats a second the pg client's per-query work, not the database, was the server's limit.
 */
interface Reader<Row> {
  resolve: (row: Row | undefined) => void;
  reject: (error: unknown) => void;
}

export class BatchedReads<Key, Row> {
  /** The readers waiting for the next query, by key (several may ask for the same key). */
  private waiting = new Map<Key, Array<Reader<Row>>>();
  private scheduled = false;

  /**
   * @param readMany answers the rows of the given (distinct) keys; a key with no row is left out.
   * @param keyOf the key of a row `readMany` answered.
   * @param maxKeys the most keys one query asks for; more waiting go to the next query.
   */
  constructor(
    private readonly readMany: (keys: Key[]) => Promise<Row[]>,
    private readonly keyOf: (row: Row) => Key,
    private readonly maxKeys = 500,
  ) {}

  /** The row of `key`, or undefined when there is none. Rejects when the batch's query failed. */
  read(key: Key): Promise<Row | undefined> {
    return new Promise((resolve, reject) => {
      const readers = this.waiting.get(key);
      if (readers) readers.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        // After the I/O phase: every request that arrived with this one has asked by then.
        setImmediate(() => this.run());
      }
    });
  }

  private run(): void {
    this.scheduled = false;
    while (this.waiting.size > 0) {
      const batch = new Map<Key, Array<Reader<Row>>>();
      for (const [key, readers] of this.waiting) {
        if (batch.size === this.maxKeys) break;
        batch.set(key, readers);
      }
      for (const key of batch.keys()) this.waiting.delete(key);
      void this.answer(batch);
    }
  }

  private async answer(batch: Map<Key, Array<Reader<Row>>>): Promise<void> {
    try {
      const rows = await this.readMany([...batch.keys()]);
      const byKey = new Map(rows.map((row) => [this.keyOf(row), row]));
      for (const [key, readers] of batch) for (const { resolve } of readers) resolve(byKey.get(key));
    } catch (error) {
      for (const readers of batch.values()) for (const { reject } of readers) reject(error);
    }
  }
}
