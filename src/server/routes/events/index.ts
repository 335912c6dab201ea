/**
 * The live event stream (docs/API.md, 实时事件): a ticket for a signed-in session, and the stream
 * itself, which that ticket opens once. The stream's own access level is public: the ticket is its
 * credential, checked here, since an EventSource cannot send the bearer header.
 */
import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../../lib/errors';
import { currentUser, defineRoute, ok } from '../../lib/route';
import { issueTicket, redeemTicket } from '../../services/events';

/** The id a reconnect resumes after: the EventSource's header, else the query's; null when absent or not an id. */
function resumeFrom(header: string | string[] | undefined, query: number | undefined): number | null {
  const given = Array.isArray(header) ? header[0] : header;
  if (given !== undefined && /^\d{1,15}$/.test(given)) return Number(given);
  return query ?? null;
}

export function eventRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  defineRoute(app, '/events/ticket', 'session', async (request) => ok({ ticket: await issueTicket(app.db, currentUser(request).sessionId) }));

  defineRoute(app, 'GET /events', 'public', async (request, reply) => {
    const identity = await redeemTicket(app.db, request.query.ticket, app.config.session.idleMinutes);
    if (!identity) throw unauthorized('实时事件票据无效或已过期，请重新获取');
    const lastEventId = resumeFrom(request.headers['last-event-id'], request.query.lastEventId);
    void reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // nginx: pass each event on at once (the committed config also turns buffering off here).
      'x-accel-buffering': 'no',
    });
    raw.socket?.setNoDelay(true);
    try {
      const leave = await app.events.join(identity, raw, lastEventId);
      raw.on('close', leave);
      if (raw.destroyed) leave();
    } catch (error) {
      // The answer has begun: the client reconnects and resumes.
      request.log.warn({ err: error }, 'live event stream could not start');
      raw.end();
    }
    return reply;
  });
  done();
}
