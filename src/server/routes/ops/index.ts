/**
 * Health for load balancers (`/healthz` alive, `/readyz` able to serve), Prometheus metrics for a
 * scraper holding METRICS_TOKEN, and the OpenAPI description for signed-in staff.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Code } from '../../../contract/constants';
import { migrationState } from '../../db/connection';
import { defineRoute, ok } from '../../lib/route';

const startedAt = Date.now();

export function opsRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  defineRoute(app, 'GET /healthz', 'public', () =>
    ok({ status: 'ok' as const, instance: app.config.instanceId, uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000) }, '服务运行中'),
  );

  defineRoute(app, 'GET /readyz', 'public', async (_request, reply) => {
    try {
      await sql`select 1`.execute(app.db);
      const migrations = await migrationState(app.db, app.dialect);
      if (migrations.applied < migrations.known) {
        // 503 so a load balancer keeps traffic away until the migrations are in.
        void reply.code(503);
        return { code: Code.internal, msg: `数据库迁移未完成（${migrations.applied}/${migrations.known}）`, data: { database: 'ok', migrations } };
      }
      return ok({ database: 'ok', migrations }, '服务就绪');
    } catch (error) {
      app.log.warn({ err: error }, 'readiness check failed: database unreachable');
      void reply.code(503);
      return { code: Code.internal, msg: '数据库不可用', data: { database: 'unreachable', migrations: { applied: 0, known: 0 } } };
    }
  });

  defineRoute(app, 'GET /metrics', 'metrics', async (_request, reply) => reply.type(app.metrics.registry.contentType).send(await app.metrics.registry.metrics()));

  defineRoute(app, 'GET /openapi.json', 'session', async (_request, reply) =>
    // A string: the route's answer schema is the envelope's, which would reject the document.
    reply.type('application/json; charset=utf-8').send(JSON.stringify(app.swagger())),
  );
  done();
}
