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
import { Passwords } from './plugins/app/passwords';
import { Sessions } from './plugins/app/sessions';
import { LoginThrottle } from './plugins/app/throttle';
import { securityPlugin } from './plugins/external/security';
import { spaPlugin } from './plugins/external/spa';
import { apiRoutes } from './routes';
import type { ValidationIssue } from './lib/validation-messages';
import './services';

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
    trustProxy: process.env.TRUST_PROXY === '1',
    ajv: {
      customOptions: { removeAdditional: false, allErrors: false, verbose: true, keywords: ['patternHint'] },
    },
    schemaErrorFormatter: (errors) => formatValidationErrors(errors as unknown as ValidationIssue[]),
  });

  const sessions = new Sessions(database.db, config.session);
  app.decorate('db', database.db);
  app.decorate('dialect', database.dialect);
  app.decorate('config', config);
  app.decorate('passwords', new Passwords(config.passwordCost));
  app.decorate('sessions', sessions);
  app.decorate('throttle', new LoginThrottle(database.db, config.throttle));

  await app.register(errorsPlugin);
  await app.register(securityPlugin);
  await app.register(authorizationPlugin, { sessions });
  await app.register(apiRoutes, { prefix: '/api' });
  if (config.clientDir) await app.register(spaPlugin, { root: config.clientDir });
  return app;
}
