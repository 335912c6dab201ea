/**
 * What the screen sent, per endpoint: msw handlers record each request so a test can assert the
 * exact body (POST) or query (GET), and count calls to see a list reload.
 */
export interface RequestLog {
  record(request: Request): Promise<unknown>;
  /** The bodies (POST) or query objects (GET) sent to a path under /api, in order. */
  sent(path: string): unknown[];
  last(path: string): unknown;
}

export function createRequestLog(): RequestLog {
  const entries: Array<{ path: string; payload: unknown }> = [];
  return {
    async record(request) {
      const url = new URL(request.url);
      const path = url.pathname.replace(/^\/api/, '');
      const payload = request.method === 'GET' ? Object.fromEntries(url.searchParams) : await request.clone().json();
      entries.push({ path, payload });
      return payload;
    },
    sent: (path) => entries.filter((entry) => entry.path === path).map((entry) => entry.payload),
    last(path) {
      const sent = this.sent(path);
      return sent[sent.length - 1];
    },
  };
}
