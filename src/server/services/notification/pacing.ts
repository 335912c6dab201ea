/**
 * How long the delivery worker rests after a round of a backlog (see Pacing in worker.ts): long
 * enough that expanding and delivering take at most `share` of the time while the rest of the
 * process is busy. Decision logic only: the worker hands in each round's timings and the event
 * loop's utilisation during the rest before it.
 *
 * A round's own cost is estimated per alarm expanded and per message sent as the fastest of the
 * last RECENT_ROUNDS full rounds. Fastest, because a round on a busy process also lasts through
 * the other work it let run meanwhile; recent only, because a round is never faster than its own
 * work: the fastest ever seen came from cheaper work (bare messages of an idle moment, test
 * messages) and priced a storm's messages at half their cost, so the worker took about twice its
 * share of the event loop.
 */

/** Full rounds the cost estimate is taken from. */
export const RECENT_ROUNDS = 4;
/** A rest that only looks whether the rest of the process is busy. */
export const LOOK_MS = 20;
/** The rest of the process counts as busy above this event-loop utilisation during a rest. */
export const OTHERS_BUSY = 0.2;
/** The longest rest after one round. */
const REST_MAX_MS = 5_000;

/** The rest after a round of `roundMs` that leaves the rest of the process `1 - share` of the time. */
export function restAfter(roundMs: number, share: number): number {
  return share >= 1 ? 0 : Math.min(REST_MAX_MS, (roundMs * (1 - share)) / share);
}

/** A round of a backlog as the worker timed it. */
export interface RoundTiming {
  /** Alarms expanded, and the expansion's time (ms). */
  expanded: number;
  expandMs: number;
  /** Messages claimed, and the claim and sends' time (ms). */
  taken: number;
  sendMs: number;
}

/** The fastest per-unit time of the last RECENT_ROUNDS full rounds. */
class RecentFastest {
  private readonly samples: number[] = [];

  add(msPerUnit: number): void {
    this.samples.push(msPerUnit);
    if (this.samples.length > RECENT_ROUNDS) this.samples.shift();
  }

  get value(): number {
    return this.samples.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...this.samples);
  }
}

export class DeliveryPacer {
  private readonly perAlarm = new RecentFastest();
  private readonly perMessage = new RecentFastest();

  constructor(
    private readonly share: number,
    /** Units of a full round: the expansion's batch and the claim's. */
    private readonly full: { alarms: number; messages: number },
  ) {}

  /**
   * The rest after this round of a backlog (full expansion or full claim); `lastRestUtilization`
   * is the event loop's utilisation during the rest before it (null: none yet), which tells
   * whether the rest of the process is busy.
   */
  restAfterRound(round: RoundTiming, lastRestUtilization: number | null): number {
    if (round.expanded === this.full.alarms) this.perAlarm.add(round.expandMs / round.expanded);
    if (round.taken === this.full.messages) this.perMessage.add(round.sendMs / round.taken);
    const cost = (round.expanded > 0 ? round.expanded * this.perAlarm.value : 0) + (round.taken > 0 ? round.taken * this.perMessage.value : 0);
    const othersBusy = lastRestUtilization !== null && lastRestUtilization >= OTHERS_BUSY;
    return othersBusy && Number.isFinite(cost) ? restAfter(cost, this.share) : LOOK_MS;
  }
}
