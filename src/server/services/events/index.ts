/** The live event stream: the outbox (`publishEvent`), tickets, and this instance's hub of streams. */
export { publishEvent, publishEvents, publishByUnit, unitsOf, devicesOfAlarms, EVENT_CHANNEL, GUARD } from './outbox';
export { issueTicket, redeemTicket, TICKET_TTL_MS, type StreamIdentity } from './tickets';
export { EventHub, MAX_REPLAY, pruneEvents, RETENTION_MS, type StreamSink } from './hub';
export { announceAlarmEvent } from './alarm';
