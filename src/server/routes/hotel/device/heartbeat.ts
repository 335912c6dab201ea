/**
 * A device's heartbeat, whatever carried it (HTTP or MQTT): the key checked against the stored
 * hash, a disabled device refused, and then either the flip to online written at once and handed
 * to the transitions exactly once (by the heartbeat whose conditional update flips the flag), or,
 * for a device already online, its last-seen time coalesced into the next flush (last-seen.ts).
 * Both transports call this, so their effect is the same; each turns the outcome into its own answer.
 */
import type { FastifyInstance } from 'fastify';
import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { deviceKeyMatches } from './device-key';
import { bringOnline } from './last-seen';

export type HeartbeatTransport = 'http' | 'mqtt';

/** unauthenticated: unknown sn or wrong key (never told apart); disabled: the right key, a disabled device. */
export type HeartbeatOutcome = { outcome: 'accepted'; serverTime: number } | { outcome: 'unauthenticated' } | { outcome: 'disabled' };

const lookup = (db: Kysely<Database>) => db.selectFrom('hotelDevice').select(['id', 'name', 'sn', 'state', 'online', 'keyHash']).where('sn', '=', '');
type HeartbeatDevice = Awaited<ReturnType<ReturnType<typeof lookup>['executeTakeFirst']>>;
/** The lookup by sn, compiled once per database: building a query cost more than the indexed read. */
const compiledLookups = new WeakMap<Kysely<Database>, CompiledQuery<NonNullable<HeartbeatDevice>>>();

async function deviceBySn(db: Kysely<Database>, sn: string): Promise<HeartbeatDevice> {
  let compiled = compiledLookups.get(db);
  if (!compiled) compiledLookups.set(db, (compiled = lookup(db).compile()));
  return (await db.executeQuery<NonNullable<HeartbeatDevice>>({ ...compiled, parameters: [sn] })).rows[0];
}

export async function acceptHeartbeat(app: FastifyInstance, { sn, key, transport }: { sn: string; key: string; transport: HeartbeatTransport }): Promise<HeartbeatOutcome> {
  const device = await deviceBySn(app.db, sn);
  const keyMatches = deviceKeyMatches(key, device?.keyHash);
  const refusal = !device || !keyMatches ? 'unauthenticated' : device.state !== 1 ? 'disabled' : null;
  app.metrics.heartbeats.inc({ transport, outcome: refusal ? 'refused' : 'accepted' });
  if (refusal || !device) return { outcome: refusal ?? 'unauthenticated' };

  const now = Date.now();
  // Status, not an edit: the version stays, so heartbeats never make an open edit dialog stale.
  const status = { id: device.id, name: device.name, sn: device.sn };
  if (device.online === 1 || !(await bringOnline(app, status, now))) app.lastSeen.note(status, now);
  return { outcome: 'accepted', serverTime: now };
}
