/**
 * A device's heartbeat, whatever carried it (HTTP or MQTT): the key checked against the stored
 * hash, a disabled device refused, and then either the flip to online written at once and handed
 * to the transitions exactly once (by the heartbeat whose conditional update flips the flag), or,
 * for a device already online, its last-seen time coalesced into the next flush (services/device-status/last-seen.ts).
 * Both transports call this, so their effect is the same; each turns the outcome into its own answer.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { deviceKeyMatches } from './device-key';
import { bringOnline } from '../../../services/device-status/last-seen';
import { devicesJoinedToPresence } from './presence';
import { BatchedReads } from '../../../lib/batched-reads';
import { listParameter, textIn } from '../../../lib/id-list';
import type { Dialect } from '../../../db/dialect';
import { SYSTEM_SCOPE } from '../../../lib/data-scope';

export type HeartbeatTransport = 'http' | 'mqtt';

/** unauthenticated: unknown sn or wrong key (never told apart); disabled: the right key, a disabled device. */
export type HeartbeatOutcome = { outcome: 'accepted'; serverTime: number } | { outcome: 'unauthenticated' } | { outcome: 'disabled' };

/** The devices with these serial numbers (one list parameter, so the SQL is the same for any count). */
// A device authenticates with its own key: no staff scope applies (the SQL is the unscoped one).
export const heartbeatLookup = (db: Kysely<Database>, dialect: Dialect) =>
  devicesJoinedToPresence(db, SYSTEM_SCOPE)
    .select(['hotelDevice.id', 'name', 'sn', 'type', 'state', 'online', 'keyHash'])
    .where(textIn(dialect, 'sn', []));
export type HeartbeatDevice = Awaited<ReturnType<ReturnType<typeof heartbeatLookup>['executeTakeFirstOrThrow']>>;

/**
 * The devices of the heartbeats that arrive together, read by sn with one query per database (the
 * query compiled once: building it cost more than the indexed read).
 */
const lookups = new WeakMap<Kysely<Database>, BatchedReads<string, HeartbeatDevice>>();

export function deviceBySn(db: Kysely<Database>, dialect: Dialect, sn: string): Promise<HeartbeatDevice | undefined> {
  let reads = lookups.get(db);
  if (!reads) {
    const compiled = heartbeatLookup(db, dialect).compile();
    reads = new BatchedReads(
      async (sns) => (await db.executeQuery<HeartbeatDevice>({ ...compiled, parameters: [listParameter(dialect, sns)] })).rows,
      (device) => device.sn,
    );
    lookups.set(db, reads);
  }
  return reads.read(sn);
}

export async function acceptHeartbeat(app: FastifyInstance, { sn, key, transport }: { sn: string; key: string; transport: HeartbeatTransport }): Promise<HeartbeatOutcome> {
  const device = await deviceBySn(app.db, app.dialect, sn);
  const keyMatches = deviceKeyMatches(key, device?.keyHash);
  const refusal = !device || !keyMatches ? 'unauthenticated' : device.state !== 1 ? 'disabled' : null;
  app.metrics.heartbeats.inc({ transport, outcome: refusal ? 'refused' : 'accepted' });
  if (refusal || !device) return { outcome: refusal ?? 'unauthenticated' };

  const now = Date.now();
  await countHeartbeat(app, device, now);
  return { outcome: 'accepted', serverTime: now };
}

/**
 * An accepted heartbeat of an enabled device at `now`: the flip to online at once, or its last-seen
 * time into the next flush. Status, not an edit: the version stays, so heartbeats never make an
 * open edit dialog stale.
 */
export async function countHeartbeat(app: FastifyInstance, device: Pick<HeartbeatDevice, 'id' | 'name' | 'sn' | 'online'>, now: number): Promise<void> {
  const status = { id: device.id, name: device.name, sn: device.sn };
  if (device.online === 1 || !(await bringOnline(app, status, now))) app.lastSeen.note(status, now);
}
