/**
 * Builds the Fastify app: external plugins (security headers, SPA files), app plugins (errors,
 * authorization) and the API routes under /api. The database handle is passed in, so tests and
 * several instances can share or separate databases as they need.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerConfig } from './config';
import type { DatabaseHandle } from './db/connection';
import { errorsPlugin, formatValidationErrors } from './plugins/app/errors';
import { authorizationPlugin } from './plugins/app/authorization';
import { AccessCache } from './plugins/app/access-cache';
import { Audit, auditPlugin } from './plugins/app/audit';
import { Passwords } from './plugins/app/passwords';
import { endText, sessionEndNotice, Sessions } from './plugins/app/sessions';
import { LoginThrottle } from './plugins/app/throttle';
import { securityPlugin } from './plugins/external/security';
import { spaPlugin } from './plugins/external/spa';
import { openApiPlugin } from './plugins/external/openapi';
import { apiResourceNames } from './services/builtins/catalogue';
import { mqttPlugin } from './plugins/external/mqtt';
import { metricsPlugin } from './plugins/app/metrics';
import { apiRoutes } from './routes';
import { LastSeenBuffer } from './services/device-status/last-seen';
import type { ValidationIssue } from './lib/validation-messages';
import { createValidatorCompiler } from './lib/validators';
import './decorations';
import { InFlight } from './lib/in-flight';
import { Notifications } from './services/notification';
import { EVENT_CHANNEL, EventHub, publishEvents } from './services/events';

export interface BuildOptions {
  config: ServerConfig;
  database: DatabaseHandle;
  /** Pino logger options; false in tests. */
  logger?: boolean | object;
}

export async function buildApp({ config, database, logger }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers["x-device-key"]', 'req.headers.cookie'],
    },
    bodyLimit: config.bodyLimitBytes,
    // A request that trickles in (a slow-loris client) holds a connection only this long: then
    // Node answers 408 and closes it. Node enforces it only when given at server creation with a
    // headers timeout no longer than it, and checks every connectionsCheckingInterval (30 s by
    // default): a quarter of the deadline keeps the cut close to it.
    requestTimeout: config.requestTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: Math.min(60_000, config.requestTimeoutMs),
      connectionsCheckingInterval: Math.max(100, Math.min(5000, Math.floor(config.requestTimeoutMs / 4))),
    },
    trustProxy: config.trustProxy,
    schemaErrorFormatter: (errors) => formatValidationErrors(errors as unknown as ValidationIssue[]),
  });

  app.setValidatorCompiler(createValidatorCompiler());

  const audit = new Audit(database.db, app.log);
  // Every way a session ends reaches the login log and, as `session-ended`, that session's live stream.
  const sessions = new Sessions(database.db, config.session, {
    async sessionsEnded(ended, reason, msg) {
      await audit.sessionsEnded(ended, reason, msg);
      // The same words the 401 of a call made with the ended session carries (Sessions.endOf).
      const notice = sessionEndNotice(reason, endText(reason, msg));
      await publishEvents(
        database.db,
        database.dialect,
        ended.map((session) => ({ event: { kind: 'session-ended' as const, reason, msg: notice }, to: { sessionId: session.id } })),
      );
    },
  });
  app.decorate('db', database.db);
  app.decorate('reads', database.reads);
  app.decorate('dialect', database.dialect);
  app.decorate('config', config);
  app.decorate('passwords', new Passwords(config.passwordCost));
  app.decorate('sessions', sessions);
  app.decorate('throttle', new LoginThrottle(database.db, config.throttle));
  app.decorate('audit', audit);
  app.decorate('lastSeen', new LastSeenBuffer(app, config.heartbeat.flushMs));
  app.decorate('inFlight', new InFlight());
  // Before the database closes (main.ts and the tests close the app first): the last times go in.
  app.addHook('onClose', () => app.lastSeen.flush());
  const notifications = new Notifications({ db: database.db, dialect: database.dialect, audit, log: app.log, config: config.notify, instanceId: config.instanceId });
  app.decorate('notifications', notifications);
  const events = new EventHub({
    db: database.db,
    dialect: database.dialect,
    idleMinutes: config.session.idleMinutes,
    log: app.log,
    ...(database.listen ? { listen: (onWake: () => void) => database.listen!(EVENT_CHANNEL, onWake) } : {}),
  });
  app.decorate('events', events);
  const access = new AccessCache(database);
  await access.start();
  app.decorate('access', access);
  app.addHook('onClose', () => access.stop());
  // Before the server closes: open streams would hold it open.
  app.addHook('preClose', () => events.stop());
  // main.ts starts the delivery worker (startNotificationWorker); it stops before the database closes.
  app.addHook('onClose', () => notifications.stop());

  await app.register(metricsPlugin, { poolStats: database.poolStats && (() => database.poolStats!()) });
  await app.register(errorsPlugin);
  await app.register(securityPlugin);
  await app.register(auditPlugin);
  await app.register(authorizationPlugin, { sessions });
  // Before the routes: device routes register the topics they handle.
  await app.register(mqttPlugin);
  // Before the routes: it collects them as they register.
  await app.register(openApiPlugin, { resourceNames: apiResourceNames() });
  await app.register(apiRoutes, { prefix: '/api' });
  if (config.clientDir) await app.register(spaPlugin, { root: config.clientDir });
  return app;
}

/**
 * Stops the app, then closes the database: Fastify's close waits for requests whose client is
 * still connected; a handler or audit record whose client has gone is waited for here (up to the
 * request timeout), so it never runs on a closed database.
 */
export async function closeApp(app: FastifyInstance, database: DatabaseHandle): Promise<void> {
  await app.close();
  if (!(await app.inFlight.settled(app.config.requestTimeoutMs))) app.log.warn({ running: app.inFlight.size }, 'closing the database with requests still running');
  await database.close();
}
