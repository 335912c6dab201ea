/**
 * The link to the MQTT broker (MQTT_URL), as `app.mqtt`; null when MQTT_URL is unset, so a machine
 * without a broker runs with the HTTP heartbeat only. Features register the topic filters they
 * handle while the app builds; the link connects once the app is ready (a broker that is down does
 * not stop the API from starting), subscribes them again on every (re)connect, reconnects on its
 * own and is closed with the app.
 */
import crypto from 'node:crypto';
import fp from 'fastify-plugin';
import type { MqttClient } from 'mqtt';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

export type MqttHandler = (topic: string, payload: Buffer) => Promise<void>;

/** How long a publish may wait for the broker's acknowledgement (QoS 1) before it counts as failed. */
const PUBLISH_TIMEOUT_MS = 5000;
const CLOSE_TIMEOUT_MS = 3000;

/** MQTT wildcard match: `+` one level, `#` the rest. A `$share/<group>/` prefix is not part of the topic. */
export function topicMatches(filter: string, topic: string): boolean {
  const wanted = filter.replace(/^\$share\/[^/]+\//, '').split('/');
  const actual = topic.split('/');
  for (let index = 0; index < wanted.length; index += 1) {
    if (wanted[index] === '#') return true;
    if (index >= actual.length || (wanted[index] !== '+' && wanted[index] !== actual[index])) return false;
  }
  return wanted.length === actual.length;
}

/** The broker address for logs: never its user name or password. */
const safeUrl = (url: string) => {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return '(invalid MQTT_URL)';
  }
};

export class MqttLink {
  private client: MqttClient | null = null;
  private readonly handlers: Array<{ filter: string; handler: MqttHandler }> = [];
  private markSubscribed!: () => void;
  private readonly subscribedOnce = new Promise<void>((resolve) => (this.markSubscribed = resolve));
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly clientId: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Registers a filter (e.g. a shared subscription) and its handler; call before the app is ready. */
  handle(filter: string, handler: MqttHandler): void {
    this.handlers.push({ filter, handler });
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** Resolves once the registered filters are subscribed (the first time). */
  whenSubscribed(): Promise<void> {
    return this.subscribedOnce;
  }

  async start(): Promise<void> {
    const where = safeUrl(this.url);
    // Loaded only when a broker is configured: mqtt.js costs a server without one ~13 MB.
    const { connect } = await import('mqtt');
    if (this.closed) return;
    // A clean session: what the filters need is subscribed again on every connect, below.
    const client = connect(this.url, { clientId: this.clientId, clean: true, resubscribe: false, reconnectPeriod: 2000, connectTimeout: 10_000 });
    this.client = client;
    client.on('connect', () => {
      this.log.info({ broker: where, clientId: this.clientId }, 'mqtt connected');
      if (this.handlers.length === 0) return this.markSubscribed();
      client
        .subscribeAsync(Object.fromEntries(this.handlers.map(({ filter }) => [filter, { qos: 1 as const }])))
        .then((grants) => {
          const refused = grants.filter((grant) => grant.qos === 128);
          if (refused.length > 0) this.log.error({ filters: refused.map((grant) => grant.topic) }, 'mqtt subscription refused by the broker');
          else this.markSubscribed();
        })
        .catch((error: unknown) => this.log.error({ err: error }, 'mqtt subscribe failed'));
    });
    client.on('reconnect', () => this.log.info({ broker: where }, 'mqtt reconnecting'));
    client.on('offline', () => this.log.warn({ broker: where }, 'mqtt offline'));
    client.on('close', () => this.log.debug({ broker: where }, 'mqtt connection closed'));
    // Without a listener an 'error' event would end the process; the client reconnects by itself.
    client.on('error', (error) => this.log.warn({ broker: where, error: error.message }, 'mqtt connection error'));
    client.on('message', (topic, payload) => {
      for (const { filter, handler } of this.handlers) {
        if (!topicMatches(filter, topic)) continue;
        handler(topic, payload).catch((error: unknown) => this.log.error({ err: error, topic }, 'mqtt message handling failed'));
      }
    });
  }

  /** Publishes and waits for the broker's acknowledgement (QoS 1); refuses at once when not connected. */
  async publish(topic: string, payload: string): Promise<void> {
    const client = this.client;
    if (!client?.connected) throw new Error('mqtt not connected');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('mqtt publish timed out')), PUBLISH_TIMEOUT_MS);
    });
    try {
      await Promise.race([client.publishAsync(topic, payload, { qos: 1 }), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the connection (and its reconnecting); a broker that does not answer does not hold shutdown. */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    if (!client) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), CLOSE_TIMEOUT_MS);
    });
    const outcome = await Promise.race([client.endAsync(), late]);
    clearTimeout(timer);
    if (outcome === 'late') await client.endAsync(true);
    this.log.info('mqtt closed');
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    mqtt: MqttLink | null;
  }
}

function registerMqtt(app: FastifyInstance): void {
  const url = app.config.mqtt.url;
  if (!url) {
    app.decorate('mqtt', null);
    return;
  }
  // Unique per process and start: two instances (or a restart racing the old one) never share a session.
  const link = new MqttLink(url, `hotel-api-${app.config.instanceId}-${crypto.randomBytes(4).toString('hex')}`, app.log.child({ component: 'mqtt' }));
  app.decorate('mqtt', link);
  app.addHook('onReady', () => link.start());
  app.addHook('onClose', () => link.close());
}

export const mqttPlugin = fp((app: FastifyInstance, _options: unknown, done: () => void) => {
  registerMqtt(app);
  done();
});
