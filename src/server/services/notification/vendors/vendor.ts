/**
 * What a vendor (a channel type) is to the delivery engine: its rate limits, and how it delivers a
 * message — format, sign, send through the outbound client, and read the answer into a verdict.
 */
import type { DeliveryVerdict } from '../../../../contract/monitor/channel';
import type { OutboundClient } from '../../../lib/outbound/client';
import type { ChannelSettings } from '../channel-config';

/** At most `count` sends in any `windowMs` (a sliding window, as the vendors count). */
export interface RateWindow {
  count: number;
  windowMs: number;
}

/** A message as a vendor formats it. */
export interface Outgoing {
  id: number;
  kind: string;
  title: string;
  /** Markdown (lists, bold): the robots render it, e-mail sends it as text. */
  body: string;
  /** The console's address of what it is about; '' when no console address is configured. */
  link: string;
  /** Structured fields (an alarm's), which the webhook sends as they are. */
  payload: unknown;
  alarmId: number | null;
  channelName: string;
  createdAt: number;
}

export interface Delivery {
  verdict: DeliveryVerdict;
  /** HTTP status or SMTP reply code; null when nothing answered. */
  status: number | null;
  /** The vendor's answer as it came (cut). */
  answer: string;
  /** Our reading: empty when sent, otherwise why (Chinese). */
  reason: string;
  /** Throttled by the vendor: how long it refuses (DingTalk: 10 minutes). */
  pauseMs?: number;
}

export interface DeliveryContext {
  outbound: OutboundClient;
  now: number;
}

export interface Vendor {
  limits(settings: ChannelSettings): RateWindow[];
  deliver(message: Outgoing, settings: ChannelSettings, context: DeliveryContext): Promise<Delivery>;
}

/** What a record keeps of an answer. */
const ANSWER_KEPT = 2000;
export const keptAnswer = (text: string): string => (text.length > ANSWER_KEPT ? `${text.slice(0, ANSWER_KEPT)}…` : text);
