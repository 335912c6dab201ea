/**
 * The live stream's connection, kept free of React and Redux so its logic is tested on its own
 * (test/client/sys/layout-live-connector.test.ts). It trades the staff token for a single-use
 * ticket, opens `GET /api/events?ticket=…` and hands on each event. The browser's own EventSource
 * reconnect cannot work here (its ticket is spent), so on any error the source is closed and a new
 * ticket fetched after a jittered exponential backoff; the next stream resumes after the last id
 * seen (`lastEventId` in the query: a fresh EventSource cannot send the Last-Event-ID header).
 */
import type { LiveEvent, LiveEventKind } from '../../../../../contract';

/** What the connector needs of an EventSource (a fake one in tests). */
export interface SourceLike {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

/** An event of the stream as the console applies it: its kind and its fields. */
export type StreamEvent = LiveEvent | { kind: 'reload' };

export interface ConnectorOptions {
  /** A fresh ticket; a refusal (null or a throw) is retried like a broken stream. */
  ticket: () => Promise<string | null>;
  open: (url: string) => SourceLike;
  onEvent: (event: StreamEvent) => void;
  onStatus: (status: LiveStatus) => void;
  /** Math.random by default; tests pin the jitter. */
  random?: () => number;
}

/** The events the console acts on (the SSE event name is the kind). */
const KINDS: readonly Exclude<LiveEventKind, 'ready'>[] = ['device-status', 'alarm-raised', 'alarm-acknowledged', 'alarm-cleared', 'command-status', 'session-ended', 'reload'];

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 30_000;

/**
 * The wait before reconnect attempt `attempt` (0 first): "equal jitter", half the exponential
 * step fixed and half random, so a server restart is not met by every console at the same instant
 * and no console waits longer than the cap.
 */
export function backoffDelay(attempt: number, random: () => number): number {
  const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 20));
  return step / 2 + (random() * step) / 2;
}

export class LiveConnector {
  private source: SourceLike | null = null;
  private lastEventId: string | null = null;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(private readonly options: ConnectorOptions) {}

  start(): void {
    this.options.onStatus('connecting');
    void this.connect();
  }

  /** For good: on sign-out, a session's end, or the shell unmounting. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.source?.close();
    this.source = null;
  }

  private async connect(): Promise<void> {
    const ticket = await this.options.ticket().catch(() => null);
    if (this.stopped) return;
    if (!ticket) return this.retry();
    const query = new URLSearchParams({ ticket });
    if (this.lastEventId !== null) query.set('lastEventId', this.lastEventId);
    const source = this.options.open(`/api/events?${query.toString()}`);
    this.source = source;
    const current = () => this.source === source && !this.stopped;
    source.addEventListener('ready', (event) => {
      if (!current()) return;
      // A first stream resumes, if it breaks, from the head it was opened at.
      const head = (JSON.parse(event.data) as { head?: unknown }).head;
      if (this.lastEventId === null && typeof head === 'number' && head > 0) this.lastEventId = String(head);
      this.attempt = 0;
      this.options.onStatus('live');
    });
    for (const kind of KINDS) {
      source.addEventListener(kind, (event) => {
        if (!current()) return;
        if (event.lastEventId) this.lastEventId = event.lastEventId;
        let fields: object;
        try {
          fields = JSON.parse(event.data) as object;
        } catch {
          return; // Not an event this console understands.
        }
        if (kind === 'session-ended') this.stop();
        this.options.onEvent({ ...fields, kind } as StreamEvent);
      });
    }
    source.addEventListener('error', () => {
      if (!current()) return;
      source.close();
      this.source = null;
      this.retry();
    });
  }

  private retry(): void {
    if (this.stopped) return;
    this.options.onStatus('reconnecting');
    const delay = backoffDelay(this.attempt, this.options.random ?? Math.random);
    this.attempt += 1;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, delay);
  }
}
