/** A server-sent events reader over real HTTP, for the live stream's tests. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface SseEvent {
  id: number | null;
  event: string;
  data: unknown;
}

export interface SseStream {
  status: number;
  events: SseEvent[];
  /** The whole body when the answer was not a stream (a refusal's envelope). */
  body: string;
  ended: Promise<void>;
  /** The first event (after `from` already seen) matching, waiting up to `ms`. */
  next(match: (event: SseEvent) => boolean, ms?: number): Promise<SseEvent>;
  close(): void;
}

export async function listening(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

export function openStream(base: string, query: Record<string, string>, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const url = `${base}/api/events?${new URLSearchParams(query).toString()}`;
    const request = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      response.setEncoding('utf8');
      const events: SseEvent[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      let body = '';
      let endedResolve!: () => void;
      const ended = new Promise<void>((done) => (endedResolve = done));
      response.on('data', (chunk: string) => {
        body += chunk;
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields = new Map<string, string>();
          for (const line of block.split('\n')) {
            if (line.startsWith(':') || !line.includes(':')) continue;
            const at = line.indexOf(':');
            fields.set(line.slice(0, at), line.slice(at + 1).trim());
          }
          if (!fields.has('event')) continue;
          events.push({ id: fields.has('id') ? Number(fields.get('id')) : null, event: fields.get('event')!, data: JSON.parse(fields.get('data') ?? 'null') });
          for (const wake of waiters) wake();
        }
      });
      let finished = false;
      const finish = () => {
        finished = true;
        endedResolve();
        for (const wake of waiters) wake();
      };
      response.on('end', finish);
      response.on('close', finish);
      response.on('error', finish);
      resolve({
        status: response.statusCode ?? 0,
        events,
        get body() {
          return body;
        },
        ended,
        next: (match, ms = 5_000) =>
          new Promise((found, fail) => {
            const check = () => {
              const hit = events.find(match);
              if (hit) {
                cleanup();
                found(hit);
              } else if (finished) {
                cleanup();
                fail(new Error(`stream ended; events: ${JSON.stringify(events)}`));
              }
            };
            const timer = setTimeout(() => {
              cleanup();
              fail(new Error(`no matching event in ${ms} ms; events: ${JSON.stringify(events)}`));
            }, ms);
            const cleanup = () => {
              clearTimeout(timer);
              waiters.delete(check);
            };
            waiters.add(check);
            check();
          }),
        close: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });
}
