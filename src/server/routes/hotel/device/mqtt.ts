/**
 * Devices over MQTT (when MQTT_URL is set). Topics, with <prefix> = MQTT_TOPIC_PREFIX (hotel):
 * - `<prefix>/device/<sn>/heartbeat`, payload `{"key":"<device key>"}`: the same heartbeat as HTTP;
 * - `<prefix>/device/<sn>/command/ack`, payload `{"key":"…","commandId":N}`: a command's answer;
 * - `<prefix>/gateway/<gateway sn>/heartbeat|connect|disconnect`, payload
 *   `{"key":"<gateway key>","devices":["<child sn>",…]}`: the gateway's heartbeat and its children's
 *   (heartbeat, connect) or its children gone (disconnect), at most GATEWAY_BATCH_MAX children a
 *   message (gateway.ts).
 * The API subscribes through a shared subscription, so with several instances the broker hands each
 * message to one of them. A message that fails (malformed, too large, unknown sn, wrong key,
 * disabled device) is dropped and logged at warn, never with its key; nothing is published back.
 */
import type { FastifyInstance } from 'fastify';
import { INT4_MAX } from '../../../../contract/common';
import { deviceKeyMatches } from './device-key';
import { acceptHeartbeat } from './heartbeat';
import { acknowledgeCommand } from './commands';
import { acceptGatewayMessage, type GatewayMessageKind } from './gateway';
import { GATEWAY_BATCH_MAX } from '../../../../contract/hotel/device';

/** The shared-subscription group of the API instances. */
export const MQTT_SHARE_GROUP = 'hotel-api';
/** A heartbeat or ack is a few dozen bytes; anything far larger is refused unread. */
export const MQTT_PAYLOAD_MAX_BYTES = 1024;
/** A gateway's batch names up to GATEWAY_BATCH_MAX serial numbers of at most 64 characters. */
export const MQTT_GATEWAY_PAYLOAD_MAX_BYTES = 96 * 1024;
const SN_PATTERN = /^[A-Za-z0-9_-]{4,64}$/;
const GATEWAY_KINDS: readonly GatewayMessageKind[] = ['heartbeat', 'connect', 'disconnect'];
const KEY_MAX = 128;

/**
 * The other fields of a closed JSON object of at most `maxBytes` with a `key` (a non-empty string of
 * at most KEY_MAX characters) and no field but `allowedFields`, or null: the rules every device and
 * gateway message shares. The caller checks the other fields' values.
 */
export function readKeyedMessage<Field extends string>(
  payload: Buffer,
  maxBytes: number,
  allowedFields: readonly Field[],
): ({ key: string } & Partial<Record<Field, unknown>>) | null {
  if (payload.length > maxBytes) return null;
  let value: unknown;
  try {
    value = JSON.parse(payload.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { key, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).some((field) => !(allowedFields as readonly string[]).includes(field))) return null;
  if (typeof key !== 'string' || key.length === 0 || key.length > KEY_MAX) return null;
  return { ...(rest as Partial<Record<Field, unknown>>), key };
}

/** `{ key }` or null: a heartbeat carries nothing but the key. */
const parseHeartbeat = (payload: Buffer) => readKeyedMessage(payload, MQTT_PAYLOAD_MAX_BYTES, []);

/**
 * `{ key, commandId }` or null: the id a positive integer within an id column's range (past it the
 * database would refuse the lookup itself).
 */
function parseAck(payload: Buffer): { key: string; commandId: number } | null {
  const message = readKeyedMessage(payload, MQTT_PAYLOAD_MAX_BYTES, ['commandId']);
  if (!message) return null;
  const { key, commandId } = message;
  return typeof commandId === 'number' && Number.isInteger(commandId) && commandId > 0 && commandId <= INT4_MAX ? { key, commandId } : null;
}

/** `{ key, devices }` or null: the devices serial numbers, at most GATEWAY_BATCH_MAX. */
function parseGatewayMessage(payload: Buffer): { key: string; devices: string[] } | null {
  const message = readKeyedMessage(payload, MQTT_GATEWAY_PAYLOAD_MAX_BYTES, ['devices']);
  if (!message) return null;
  const { key, devices } = message;
  if (!Array.isArray(devices) || devices.length > GATEWAY_BATCH_MAX) return null;
  if (!devices.every((sn): sn is string => typeof sn === 'string' && SN_PATTERN.test(sn))) return null;
  return { key, devices };
}

export function deviceMqttRoutes(app: FastifyInstance): void {
  const link = app.mqtt;
  if (!link) return;
  const base = `${app.config.mqtt.topicPrefix}/device/`;
  const log = app.log.child({ transport: 'mqtt' });
  /** The sn in `<prefix>/device/<sn>/<suffix>`, or null. */
  const snOf = (topic: string, suffix: string) => {
    const sn = topic.startsWith(base) && topic.endsWith(`/${suffix}`) ? topic.slice(base.length, -suffix.length - 1) : '';
    return SN_PATTERN.test(sn) ? sn : null;
  };

  link.handle(`$share/${MQTT_SHARE_GROUP}/${base}+/heartbeat`, async (topic, payload) => {
    const sn = snOf(topic, 'heartbeat');
    const message = parseHeartbeat(payload);
    if (!sn || !message) {
      app.metrics.heartbeats.inc({ transport: 'mqtt', outcome: 'refused' });
      log.warn({ topic, bytes: payload.length, reason: 'malformed' }, 'mqtt heartbeat ignored');
      return;
    }
    const result = await acceptHeartbeat(app, { sn, key: message.key, transport: 'mqtt' });
    if (result.outcome !== 'accepted') log.warn({ sn, reason: result.outcome }, 'mqtt heartbeat ignored');
  });

  const gatewayBase = `${app.config.mqtt.topicPrefix}/gateway/`;
  link.handle(`$share/${MQTT_SHARE_GROUP}/${gatewayBase}+/+`, async (topic, payload) => {
    const [sn = '', kind = ''] = topic.startsWith(gatewayBase) ? topic.slice(gatewayBase.length).split('/') : [];
    const message = parseGatewayMessage(payload);
    const known = GATEWAY_KINDS.find((candidate) => candidate === kind);
    if (!SN_PATTERN.test(sn) || !known || !message) {
      app.metrics.heartbeats.inc({ transport: 'mqtt', outcome: 'refused' });
      log.warn({ topic, bytes: payload.length, reason: 'malformed' }, 'mqtt gateway message ignored');
      return;
    }
    const result = await acceptGatewayMessage(app, { sn, key: message.key, kind: known, children: message.devices, transport: 'mqtt' });
    if (result.outcome !== 'accepted') log.warn({ sn, kind: known, reason: result.outcome }, 'mqtt gateway message ignored');
    else if (result.ignored > 0) log.warn({ sn, kind: known, ignored: result.ignored }, 'mqtt gateway message named devices that are not its enabled children');
  });

  link.handle(`$share/${MQTT_SHARE_GROUP}/${base}+/command/ack`, async (topic, payload) => {
    const sn = snOf(topic, 'command/ack');
    const message = parseAck(payload);
    if (!sn || !message) {
      log.warn({ topic, bytes: payload.length, reason: 'malformed' }, 'mqtt command ack ignored');
      return;
    }
    const device = await app.db.selectFrom('hotelDevice').select(['id', 'keyHash']).where('sn', '=', sn).where('deletedAt', 'is', null).executeTakeFirst();
    if (!device || !deviceKeyMatches(message.key, device.keyHash)) {
      log.warn({ sn, commandId: message.commandId, reason: 'unauthenticated' }, 'mqtt command ack ignored');
      return;
    }
    if (!(await acknowledgeCommand(app, device.id, message.commandId))) {
      log.info({ sn, commandId: message.commandId }, 'mqtt command ack for no pending command (unknown, already answered or timed out)');
    }
  });
}
