/**
 * Tickets for the live stream: a browser cannot send its bearer token with an EventSource except
 * in the URL, and URLs end up in logs. So it trades the token for a ticket: 256 random bits, only
 * their hash stored (in the database, so any instance behind the proxy redeems it), valid for 30 s
 * and redeemed once, by a conditional update that only one caller can win.
 */
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

export const TICKET_TTL_MS = 30_000;

const hash = (ticket: string) => crypto.createHash('sha256').update(ticket).digest('hex');

/** Who a redeemed ticket was issued to: a live session of an enabled user in an enabled role. */
export interface StreamIdentity {
  sessionId: number;
  userId: number;
  roleId: number;
  builtin: boolean;
}

export async function issueTicket(db: Kysely<Database>, sessionId: number, now = Date.now()): Promise<string> {
  const ticket = crypto.randomBytes(32).toString('base64url');
  // Spent and lapsed tickets go as new ones come: the table holds about a minute of them.
  await db
    .deleteFrom('eventTicket')
    .where('expiresAt', '<', now - TICKET_TTL_MS)
    .execute();
  await db
    .insertInto('eventTicket')
    .values({ ticketHash: hash(ticket), sessionId, expiresAt: now + TICKET_TTL_MS, usedAt: null })
    .execute();
  return ticket;
}

/** The identity behind a ticket, spending it; null when unknown, spent, expired, or its session has ended. */
export async function redeemTicket(db: Kysely<Database>, ticket: string, idleMinutes: number, now = Date.now()): Promise<StreamIdentity | null> {
  const spent = await db
    .updateTable('eventTicket')
    .set({ usedAt: now })
    .where('ticketHash', '=', hash(ticket))
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
    .returning('sessionId')
    .executeTakeFirst();
  if (!spent) return null;
  const row = await liveSessions(db, [spent.sessionId], idleMinutes, now).select(['u.id as userId', 'r.id as roleId', 'r.builtin']).executeTakeFirst();
  return row ? { sessionId: row.id, userId: row.userId, roleId: row.roleId, builtin: row.builtin === 1 } : null;
}

/** Of these sessions, those still live: not revoked, within their idle and absolute expiry, user and role enabled. */
export const liveSessions = (db: Kysely<Database>, ids: number[], idleMinutes: number, now = Date.now()) =>
  db
    .selectFrom('sysSession as s')
    .innerJoin('sysUser as u', 'u.id', 's.userId')
    .innerJoin('sysRole as r', 'r.id', 'u.roleId')
    .select('s.id')
    .where('s.id', 'in', ids)
    .where('s.revokedAt', 'is', null)
    .where('s.expiresAt', '>', now)
    .where('s.lastSeenAt', '>', now - idleMinutes * 60_000)
    .where('u.state', '=', 1)
    .where('r.state', '=', 1);
