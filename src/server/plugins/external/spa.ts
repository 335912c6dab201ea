/**
 * Serves the built SPA on the same origin as /api. Hashed assets are sent precompressed (brotli or
 * gzip, by Accept-Encoding) and cached forever; index.html is never cached, and any non-API GET
 * that matches no file falls back to it (history routing).
 */
import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const HASHED_ASSET = /\.[0-9a-f]{8,}\.(js|css|woff2?|png|svg)(\.br|\.gz)?$/;

export const spaPlugin = fp(async (app: FastifyInstance, options: { root: string }) => {
  if (!fs.existsSync(path.join(options.root, 'index.html'))) {
    app.log.warn({ root: options.root }, '未找到前端构建产物（请先运行 npm run build），只提供 /api');
    return;
  }
  await app.register(fastifyStatic, {
    root: options.root,
    wildcard: false,
    preCompressed: true,
    index: false,
    cacheControl: false,
    setHeaders(reply, filePath) {
      reply.header('Cache-Control', HASHED_ASSET.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // Browsers ask for it on their own; the app has no icon of its own, so the answer is an empty one
  // (kept a day) rather than a 404 in every log and console.
  app.get('/favicon.ico', { config: { access: 'public' } }, (_request, reply) => reply.code(204).header('Cache-Control', 'public, max-age=86400').send());
  app.get('/*', { config: { access: 'public' } }, (request, reply) => {
    const pathname = (request.raw.url ?? '/').split('?')[0];
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      return reply.send({ code: 404, msg: '接口不存在', data: null });
    }
    // A missing asset is a 404, not the app shell: a stale chunk name must fail visibly.
    if (/\.[a-z0-9]+$/i.test(pathname)) return reply.code(404).send('Not Found');
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
});
