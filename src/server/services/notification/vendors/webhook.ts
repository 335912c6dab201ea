/**
 * A generic webhook: the message as a JSON document (its id, kind, title, text, the console link
 * and, for an alarm, the alarm's fields). With a secret, `X-Hotel-Signature: sha256=<hex>` is the
 * HMAC-SHA256 (key: the secret) of `<X-Hotel-Timestamp>.<body>`, so a receiver can check the sender
 * and refuse replays. `X-Hotel-Message-Id` lets it drop a message it already took (after a crash
 * between its answer and our record, a message can come twice). Any 2xx is sent; 429 throttles
 * (Retry-After); 5xx and 408 retry; anything else is refused. docs/api/monitor.md.
 */
import crypto from 'node:crypto';
import { delivered, postAndRead } from './http-delivery';
import type { Vendor } from './vendor';

const SIGNATURE_HEADER = 'x-hotel-signature';
const TIMESTAMP_HEADER = 'x-hotel-timestamp';
const MESSAGE_ID_HEADER = 'x-hotel-message-id';

/** The signature header's value for a body sent at `timestamp` (epoch ms). */
const webhookSignature = (secret: string, timestamp: number, body: string): string => `sha256=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

export const webhook: Vendor = {
  limits: (settings) => (settings.ratePerMinute ? [{ count: settings.ratePerMinute, windowMs: 60_000 }] : []),
  deliver: (message, settings, { outbound, now }) => {
    const body = JSON.stringify({
      id: message.id,
      kind: message.kind,
      title: message.title,
      text: message.body,
      link: message.link,
      alarmId: message.alarmId,
      alarm: message.payload,
      channel: message.channelName,
      createdAt: message.createdAt,
      sentAt: now,
    });
    const headers: Record<string, string> = { [TIMESTAMP_HEADER]: String(now), [MESSAGE_ID_HEADER]: String(message.id) };
    if (settings.secret) headers[SIGNATURE_HEADER] = webhookSignature(settings.secret, now, body);
    return postAndRead(outbound, { url: settings.url!, body, headers }, (answer) => delivered(answer.status, answer.body));
  },
};
