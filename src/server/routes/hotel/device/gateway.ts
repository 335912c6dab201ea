/**
 * Gateways: one device of type 网关 speaks for its children (devices whose `gatewayId` names it)
 * over one connection, as room control units and lock systems do. A gateway message is
 * authenticated by the gateway's own key, exactly as a device's heartbeat is; it counts as the
 * gateway's heartbeat, and names children by serial number:
 * - heartbeat / connect: each named child's heartbeat, as if the child had sent it;
 * - disconnect: each named child goes offline at once (its gateway is alive, so it gets its own alarm).
 * Only the gateway's own enabled children are taken; any other serial number is ignored (counted
 * and logged by the caller). Both transports (MQTT topics, the HTTP batch) call this.
 */
import type { FastifyInstance } from 'fastify';
import { deviceKeyMatches } from './device-key';
import { countHeartbeat, deviceBySn, type HeartbeatTransport } from './heartbeat';
import { devicesJoinedToPresence } from './presence';
import { takeOffline } from '../../../services/device-status/last-seen';
import { GATEWAY_TYPE } from '../../../services/device-status/offline-sweep';
import { textIn } from '../../../lib/id-list';
import { SYSTEM_SCOPE } from '../../../lib/data-scope';

export type GatewayMessageKind = 'heartbeat' | 'connect' | 'disconnect';

export type GatewayOutcome =
  { outcome: 'accepted'; serverTime: number; accepted: number; ignored: number } | { outcome: 'unauthenticated' } | { outcome: 'disabled' } | { outcome: 'notGateway' };

export async function acceptGatewayMessage(
  app: FastifyInstance,
  { sn, key, kind, children, transport }: { sn: string; key: string; kind: GatewayMessageKind; children: readonly string[]; transport: HeartbeatTransport },
): Promise<GatewayOutcome> {
  const gateway = await deviceBySn(app.db, app.dialect, sn);
  const keyMatches = deviceKeyMatches(key, gateway?.keyHash);
  const refusal = !gateway || !keyMatches ? 'unauthenticated' : gateway.state !== 1 ? 'disabled' : gateway.type !== GATEWAY_TYPE ? 'notGateway' : null;
  if (refusal || !gateway) {
    app.metrics.heartbeats.inc({ transport, outcome: 'refused' });
    return { outcome: refusal ?? 'unauthenticated' };
  }
  const wanted = [...new Set(children)];
  // A device authenticates through its gateway: the gateway's children, no staff scope.
  const found =
    wanted.length === 0
      ? []
      : await devicesJoinedToPresence(app.db, SYSTEM_SCOPE)
          .select(['hotelDevice.id', 'name', 'sn', 'state', 'online'])
          .where('hotelDevice.gatewayId', '=', gateway.id)
          .where(textIn(app.dialect, 'sn', wanted))
          .execute();
  const enabled = found.filter((child) => child.state === 1);
  const now = Date.now();
  // The children before the gateway: a gateway coming back promotes its children still silent to
  // alarms of their own (device-status/transitions.ts), and those it reports now are not silent.
  if (kind === 'disconnect') {
    await takeOffline(
      app,
      enabled.map(({ id, name, sn: childSn }) => ({ id, name, sn: childSn })),
      now,
    );
  } else {
    for (const child of enabled) await countHeartbeat(app, child, now);
  }
  await countHeartbeat(app, gateway, now);
  app.metrics.heartbeats.inc({ transport, outcome: 'accepted' }, 1 + (kind === 'disconnect' ? 0 : enabled.length));
  return { outcome: 'accepted', serverTime: now, accepted: enabled.length, ignored: wanted.length - enabled.length };
}
