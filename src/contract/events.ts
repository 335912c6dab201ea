/**
 * The live event stream of the console. A browser asks for a short, single-use ticket with its
 * staff token, then opens `GET /api/events?ticket=…` as server-sent events: the bearer token never
 * travels in a URL (URLs end up in logs). Each event's SSE id is its outbox id; a reconnect sends
 * it back (`Last-Event-ID`, or `lastEventId` in the query) and receives what it missed.
 */
import { Type } from '@sinclair/typebox';
import { field } from './common';
import type { SessionEndReason } from './constants';
import { get, postEmpty } from './endpoint';

export const EventTicket = Type.Object({ ticket: Type.String() });

export const EventStreamQuery = Type.Object(
  {
    /** 256 bits in base64url. */
    ticket: field.text('票据', 43, { min: 43, pattern: '^[A-Za-z0-9_-]{43}$', patternHint: '格式不正确' }),
    /** The last event id seen, for a reconnect that cannot send the Last-Event-ID header. */
    lastEventId: Type.Optional(field.id('最后事件编号')),
  },
  { additionalProperties: false },
);

/** The events the stream sends: the SSE event name is `kind`, its data the rest as JSON. */
export type LiveEvent =
  | { kind: 'device-status'; deviceIds: number[]; online: 0 | 1; at: number }
  | { kind: 'alarm-raised'; type: string; deviceIds: number[]; at: number }
  | { kind: 'alarm-acknowledged'; alarmIds: number[]; by: string; at: number }
  | { kind: 'alarm-cleared'; alarmIds: number[]; by: string; at: number }
  | { kind: 'command-status'; commandIds: number[]; deviceIds: number[]; status: string; at: number }
  | { kind: 'session-ended'; reason: SessionEndReason; msg: string };

export type LiveEventKind = LiveEvent['kind'] | 'ready' | 'reload';

export const eventEndpoints = {
  /** A ticket for the stream: random, single use, valid for 30 s, redeemable on any instance. */
  '/events/ticket': postEmpty(EventTicket, { kind: 'none' }),
  /** Server-sent events (text/event-stream); a refused ticket answers the JSON envelope. */
  'GET /events': { ...get(EventStreamQuery, Type.Null(), { kind: 'none' }), transport: 'download' },
} as const;
