/**
 * Prometheus metrics (prom-client), one registry per app so several apps in one process (tests)
 * never share counters: request rate and latency by route, the event loop's delay and the other
 * process defaults, the PostgreSQL pool, scheduler runs and device heartbeats.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PoolStats } from '../../db/connection';

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Histogram({
    name: 'hotel_http_request_duration_seconds',
    help: 'API request latency by route (the registered path, never the raw URL), method and HTTP status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });
  readonly heartbeats = new Counter({
    name: 'hotel_device_heartbeats_total',
    help: 'Device heartbeats by transport (http, mqtt) and outcome (accepted, refused)',
    labelNames: ['transport', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly scheduleRuns = new Counter({
    name: 'hotel_schedule_runs_total',
    help: 'Scheduled task runs by task, trigger (cron, manual) and outcome (success, failed)',
    labelNames: ['task', 'trigger', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor(poolStats?: () => PoolStats) {
    collectDefaultMetrics({ register: this.registry, prefix: 'hotel_' });
    if (poolStats) {
      new Gauge({
        name: 'hotel_db_pool_connections',
        help: 'PostgreSQL pool connections by state (total, idle, waiting requests)',
        labelNames: ['state'] as const,
        registers: [this.registry],
        collect() {
          const stats = poolStats();
          this.set({ state: 'total' }, stats.total);
          this.set({ state: 'idle' }, stats.idle);
          this.set({ state: 'waiting' }, stats.waiting);
        },
      });
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

export const metricsPlugin = fp(async (app: FastifyInstance, options: { poolStats?: () => PoolStats }) => {
  const metrics = new Metrics(options.poolStats);
  app.decorate('metrics', metrics);
  app.addHook('onResponse', async (request, reply) => {
    // Unmatched URLs share one label: a scanner must not grow the series without bound.
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    metrics.requests.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  app.addHook('onClose', async () => metrics.registry.clear());
});
