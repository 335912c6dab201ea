/**
 * Bursts of events become one update: events are summed up as they come and applied at most once
 * per `FLUSH_MS`, so a mass outage (hundreds of devices in a second) costs the page two renders a
 * second instead of one per event. The first event after a quiet spell is applied at once.
 */
import type { StreamEvent } from './connector';

export const FLUSH_MS = 500;

/** What a burst changed: each device's latest status, and which kinds of data to read again. */
export interface LiveBatch {
  /** Device id -> its latest status (1 online, 0 offline) and when it changed. */
  devices: Map<number, { online: 0 | 1; at: number }>;
  /** Alarms were raised: the badge and the alarm lists read again, a new severe one is announced. */
  alarmsRaised: boolean;
  /** Alarms were acknowledged or cleared. */
  alarmsChanged: boolean;
  /** A remote command's status changed (the device list shows the latest). */
  commands: boolean;
  /** The stream could not resume: everything live reads again. */
  reload: boolean;
  /** How many events the batch holds. */
  events: number;
}

export const emptyBatch = (): LiveBatch => ({ devices: new Map(), alarmsRaised: false, alarmsChanged: false, commands: false, reload: false, events: 0 });

/** Folds one event into a batch (the session's end is not batched: it is acted on at once). */
export function fold(batch: LiveBatch, event: StreamEvent): LiveBatch {
  batch.events += 1;
  switch (event.kind) {
    case 'device-status':
      for (const id of event.deviceIds) batch.devices.set(id, { online: event.online, at: event.at });
      break;
    case 'alarm-raised':
      batch.alarmsRaised = true;
      break;
    case 'alarm-acknowledged':
    case 'alarm-cleared':
      batch.alarmsChanged = true;
      break;
    case 'command-status':
      batch.commands = true;
      break;
    case 'reload':
      batch.reload = true;
      break;
    case 'session-ended':
      break;
  }
  return batch;
}

/** Collects events and hands a batch to `apply` at most once per `intervalMs`. */
export class Coalescer {
  private batch = emptyBatch();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastFlush = -Infinity;

  constructor(
    private readonly apply: (batch: LiveBatch) => void,
    private readonly intervalMs = FLUSH_MS,
    private readonly now: () => number = Date.now,
  ) {}

  push(event: StreamEvent): void {
    fold(this.batch, event);
    if (this.timer !== null) return;
    this.timer = setTimeout(() => this.flush(), Math.max(0, this.lastFlush + this.intervalMs - this.now()));
  }

  /** Drops what is pending (the stream stopped). */
  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.batch = emptyBatch();
  }

  private flush(): void {
    this.timer = null;
    this.lastFlush = this.now();
    const batch = this.batch;
    this.batch = emptyBatch();
    this.apply(batch);
  }
}
