/** The app-wide services every route plugin can reach through the Fastify instance. */
import type { Kysely } from 'kysely';
import type { Database } from './db/schema';
import type { Dialect } from './db/dialect';
import type { ServerConfig } from './config';
import type { Passwords } from './plugins/app/passwords';
import type { Sessions } from './plugins/app/sessions';
import type { LoginThrottle } from './plugins/app/throttle';
import type { Audit } from './plugins/app/audit';
import type { LastSeenBuffer } from './routes/hotel/device/last-seen';
import type { InFlight } from './lib/in-flight';

export interface Services {
  db: Kysely<Database>;
  /** Read-only queries that may cover many rows: list pages and counts (DatabaseHandle.reads). */
  reads: Kysely<Database>;
  dialect: Dialect;
  config: ServerConfig;
  passwords: Passwords;
  sessions: Sessions;
  throttle: LoginThrottle;
  audit: Audit;
  /** Coalesced heartbeat times of online devices (routes/hotel/device/last-seen.ts). */
  lastSeen: LastSeenBuffer;
  /** Handlers and audit records still running, which shutdown waits for (lib/in-flight.ts). */
  inFlight: InFlight;
}

declare module 'fastify' {
  interface FastifyInstance extends Services {}
}
