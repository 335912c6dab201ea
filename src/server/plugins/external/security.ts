/**
 * Security headers: a CSP with no inline scripts, nosniff, and no framing. antd sets inline style
 * attributes and (with CSS-in-JS) style elements, so styles allow 'unsafe-inline'; scripts do not.
 * API answers are never stored by a cache (the sign-in answer holds the token, the others
 * business data). HSTS goes out only on requests that came over TLS: directly, or through a
 * trusted proxy (TRUST_PROXY=1) that says so in X-Forwarded-Proto; a plain-HTTP install on a
 * hotel LAN must not tell browsers to insist on HTTPS.
 *
 * The headers are helmet's, worked out once at start: they depend on the options only, and
 * @fastify/helmet rebuilt helmet's middleware on every request, a sixth of a heartbeat's cost.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';

const API_PREFIX = '/api';
const HSTS = 'max-age=31536000; includeSubDomains';

const HELMET_OPTIONS: HelmetOptions = {
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
};

/** The headers helmet's middleware sets with these options, captured from one dry run. */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  // Bad options throw when helmet() builds the middleware; setting headers calls next() with nothing.
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
}

export const securityPlugin = fp((app: FastifyInstance, _options: unknown, done: () => void) => {
  const headers = helmetHeaders(HELMET_OPTIONS);
  app.addHook('onRequest', (request, reply, next) => {
    reply.headers(headers);
    if (request.url === API_PREFIX || request.url.startsWith(`${API_PREFIX}/`)) reply.header('cache-control', 'no-store');
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    next();
  });
  done();
});
