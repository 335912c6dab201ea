/**
 * Work a request started that must end before the database closes: route handlers and the audit
 * record written after them. At shutdown the server stops waiting for a request once its client
 * has gone, but the handler goes on; closing the database under it failed its statements and
 * lost its operation-log record. `closeApp` (app.ts) waits for this work first.
 */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    const forget = () => this.running.delete(work);
    work.then(forget, forget);
    return work;
  }

  get size(): number {
    return this.running.size;
  }

  /** Resolves once nothing tracked is running (work started meanwhile included), or after `timeoutMs`; answers whether all ended. */
  async settled(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.running.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...this.running]), new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
      clearTimeout(timer);
    }
    return true;
  }
}
