/**
 * Prometheus metrics (prom-client), one registry per app so several apps in one process (tests)
 * never share counters: request rate and latency by route, the event loop's delay and the other
 * process defaults, the PostgreSQL pool, scheduler runs and device heartbeats. Slow requests and
 * event-loop hold-ups are also logged at warn.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PoolStats } from '../../db/connection';

/**
 * The period of the timer behind `nodejs_eventloop_lag_*` (prom-client's default, stated here
 * because the figures depend on it): they are the intervals between its ticks, so an idle process
 * reads 0.010 and the event loop's delay is the figure minus this (docs/API.md).
 */
export const EVENT_LOOP_MONITOR_MS = 10;

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
    collectDefaultMetrics({ register: this.registry, prefix: 'hotel_', eventLoopMonitoringPrecision: EVENT_LOOP_MONITOR_MS });
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

/** How often the watch looks at the clock: a hold-up shorter than the threshold plus this is never missed. */
const WATCH_INTERVAL_MS = 100;

/**
 * Calls `blocked(ms)` when a timer due every WATCH_INTERVAL_MS fires `threshold` or more late: the
 * event loop could not run anything (requests included) for that long. Answers the stop function.
 */
export function watchEventLoop(threshold: number, blocked: (ms: number) => void): () => void {
  if (threshold <= 0) return () => undefined;
  let expected = performance.now() + WATCH_INTERVAL_MS;
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - expected;
    if (late >= threshold) blocked(Math.round(late));
    expected = now + WATCH_INTERVAL_MS;
  }, WATCH_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

export const metricsPlugin = fp((app: FastifyInstance, options: { poolStats?: () => PoolStats }, done: () => void) => {
  const metrics = new Metrics(options.poolStats);
  app.decorate('metrics', metrics);
  app.addHook('onResponse', (request, reply, hookDone) => {
    // Unmatched URLs share one label: a scanner must not grow the series without bound.
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    metrics.requests.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    // At warn, so a production log (info) and a quiet one (warn) both show what kept someone waiting.
    if (reply.elapsedTime >= app.config.slowRequestMs) request.log.warn({ route, method: request.method, ms: Math.round(reply.elapsedTime) }, 'slow request');
    hookDone();
  });
  // From ready on: loading code and preparing the database at start hold the loop, serving nobody.
  let stopWatch = () => undefined as void;
  app.addHook('onReady', (readyDone) => {
    stopWatch = watchEventLoop(app.config.stallWarnMs, (ms) => app.log.warn({ ms }, 'event loop blocked'));
    readyDone();
  });
  app.addHook('onClose', (_instance, closeDone) => {
    stopWatch();
    metrics.registry.clear();
    closeDone();
  });
  done();
});
