/**
 * Security headers: a CSP with no inline scripts, nosniff, and no framing. antd sets inline style
 * attributes and (with CSS-in-JS) style elements, so styles allow 'unsafe-inline'; scripts do not.
 * API answers are never stored by a cache (the sign-in answer holds the token, the others
 * business data). HSTS goes out only on requests that came over TLS: directly, or through a
 * trusted proxy (TRUST_PROXY=1) that says so in X-Forwarded-Proto; a plain-HTTP install on a
 * hotel LAN must not tell browsers to insist on HTTPS.
 */
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

const API_PREFIX = '/api';
const HSTS = 'max-age=31536000; includeSubDomains';

export const securityPlugin = fp(async (app: FastifyInstance) => {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.url === API_PREFIX || request.url.startsWith(`${API_PREFIX}/`)) reply.header('cache-control', 'no-store');
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
});
