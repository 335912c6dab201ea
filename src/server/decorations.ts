/**
 * What app.ts decorates the Fastify instance with, app-wide: the database handles, the
 * configuration and the app plugins' services. Routes and services reach them through the instance
 * (`app.db`, `app.audit`, …) and import only their types; each plugin that decorates more declares
 * its own (metrics, mqtt, apiRoutes; lib/route.ts declares request.user).
 */
import type { Kysely } from 'kysely';
import type { Database } from './db/schema';
import type { Dialect } from './db/dialect';
import type { ServerConfig } from './config';
import type { Passwords } from './plugins/app/passwords';
import type { Sessions } from './plugins/app/sessions';
import type { LoginThrottle } from './plugins/app/throttle';
import type { Audit } from './plugins/app/audit';
import type { LastSeenBuffer } from './services/device-status/last-seen';
import type { InFlight } from './lib/in-flight';
import type { Notifications } from './services/notification';
import type { EventHub } from './services/events';
import type { AccessCache } from './plugins/app/access-cache';

export interface AppDecorations {
  db: Kysely<Database>;
  /** Read-only queries that may cover many rows: list pages and counts (DatabaseHandle.reads). */
  reads: Kysely<Database>;
  dialect: Dialect;
  config: ServerConfig;
  passwords: Passwords;
  sessions: Sessions;
  throttle: LoginThrottle;
  audit: Audit;
  /** Coalesced heartbeat times of online devices (services/device-status/last-seen.ts). */
  lastSeen: LastSeenBuffer;
  /** Handlers and audit records still running, which shutdown waits for (lib/in-flight.ts). */
  inFlight: InFlight;
  /** Alarm notifications: the outbound client, this instance's delivery worker, 测试发送 (services/notification). */
  notifications: Notifications;
  /** This instance's live event streams (services/events). */
  events: EventHub;
  /** What the authorization hook reads on every request, kept until a change of it is announced (plugins/app/access-cache.ts). */
  access: AccessCache;
}

declare module 'fastify' {
  interface FastifyInstance extends AppDecorations {}
}
