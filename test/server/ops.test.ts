/**
 * Operability (issue 13): health and readiness probes for load balancers, Prometheus metrics that
 * are never public, quiet hot paths in the request log, and an OpenAPI document naming every route.
 */
import { Writable } from 'node:stream';
import { createTestDatabase, describeOnEachDatabase, dialects, startTestApp, type TestApp } from './support/harness';
import { DEVICE_KEY_HEADER } from '../../src/contract/constants';
import { EVENT_LOOP_MONITOR_MS } from '../../src/server/plugins/app/metrics';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

/** Captured pino lines of the app under test. */
const logLines: Array<{ level: number; msg: string; req?: { url?: string }; res?: unknown }> = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

async function getJson(t: TestApp, url: string, token?: string) {
  const response = await t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.statusCode, type: String(response.headers['content-type']), body: response.body };
}

describeOnEachDatabase(
  'operability',
  (ctx) => {
    it('answers /api/healthz to anyone, cheaply, with the instance and its uptime', async () => {
      const answer = await getJson(ctx(), '/api/healthz');
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 200, data: { status: 'ok', instance: ctx().config.instanceId } });
    });

    it('answers /api/readyz with every known migration applied', async () => {
      const answer = await getJson(ctx(), '/api/readyz');
      expect(answer.status).toBe(200);
      const { data } = JSON.parse(answer.body) as { data: { database: string; migrations: { applied: number; known: number } } };
      expect(data.database).toBe('ok');
      expect(data.migrations.known).toBeGreaterThanOrEqual(6);
      expect(data.migrations.applied).toBe(data.migrations.known);
    });

    it('refuses metrics without the token and to a staff session, and serves them with it', async () => {
      const admin = await ctx().login();
      expect(JSON.parse((await getJson(ctx(), '/api/metrics')).body)).toMatchObject({ code: 401, msg: '监控令牌无效' });
      expect(JSON.parse((await getJson(ctx(), '/api/metrics', admin)).body)).toMatchObject({ code: 401 });

      // Some traffic to count: a heartbeat refused and one accepted, a schedule run by hand.
      const created = await ctx().call('/hotel/device/creation', { name: '指标门锁', sn: 'METRIC-0001', type: 'lock', state: 1, remark: '' }, admin);
      for (const key of ['wrong-key', created.data.deviceKey]) {
        await ctx().app.inject({ method: 'POST', url: '/api/hotel/device/heartbeat', headers: { [DEVICE_KEY_HEADER]: key }, payload: { sn: 'METRIC-0001' } });
      }
      const schedules = await ctx().call('/sys/schedule/inquire', { current: 1, size: 50, params: {} }, admin);
      const prune = schedules.data.records.find((schedule) => schedule.task === 'session.purgeExpired')!;
      expect((await ctx().call('/sys/schedule/run', { id: prune.id }, admin)).code).toBe(200);

      const scraped = await getJson(ctx(), '/api/metrics', METRICS_TOKEN);
      expect(scraped.status).toBe(200);
      expect(scraped.type).toMatch(/^text\/plain/);
      const text = scraped.body;
      expect(text).toMatch(/hotel_http_request_duration_seconds_count\{method="GET",route="\/api\/healthz",status="200"\} \d+/);
      expect(text).toMatch(/hotel_device_heartbeats_total\{transport="http",outcome="refused"\} 1/);
      expect(text).toMatch(/hotel_device_heartbeats_total\{transport="http",outcome="accepted"\} 1/);
      expect(text).toMatch(/hotel_schedule_runs_total\{task="session.purgeExpired",trigger="manual",outcome="success"\} 1/);
      expect(text).toMatch(/hotel_nodejs_eventloop_lag_p99_seconds \d/);
      if (ctx().database.dialect === 'postgres') expect(text).toMatch(/hotel_db_pool_connections\{state="total"\} \d+/);
      // The raw URL never becomes a label: a scanner cannot grow the series.
      await getJson(ctx(), '/api/no/such/path/123');
      expect((await getJson(ctx(), '/api/metrics', METRICS_TOKEN)).body).toMatch(/route="unmatched"/);
      expect((await getJson(ctx(), '/api/metrics', METRICS_TOKEN)).body).not.toMatch(/no\/such\/path/);
    });

    it('reports the event loop as intervals of its monitoring timer, which an idle process reads as the period itself', async () => {
      await getJson(ctx(), '/api/metrics', METRICS_TOKEN);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const text = (await getJson(ctx(), '/api/metrics', METRICS_TOKEN)).body;
      const seconds = (name: string) => Number(new RegExp(`hotel_nodejs_eventloop_lag_${name}_seconds ([\\d.e-]+)`).exec(text)?.[1]);
      // The median, not the minimum: a tick after a late one may come a little early.
      expect(seconds('p50')).toBeGreaterThanOrEqual((EVENT_LOOP_MONITOR_MS * 0.9) / 1000);
      expect(seconds('p50')).toBeLessThan((EVENT_LOOP_MONITOR_MS * 5) / 1000);
    });

    it('keeps hot paths (heartbeats, probes) out of the info log while other requests are logged', async () => {
      logLines.length = 0;
      await getJson(ctx(), '/api/healthz');
      await ctx().app.inject({ method: 'POST', url: '/api/hotel/device/heartbeat', headers: { [DEVICE_KEY_HEADER]: 'x' }, payload: { sn: 'NOPE-0001' } });
      await getJson(ctx(), '/api/sys/menu/authority');
      const urls = logLines.filter((line) => line.msg === 'incoming request').map((line) => line.req?.url);
      expect(urls).toEqual(['/api/sys/menu/authority']);
    });

    it('describes every registered route in the OpenAPI document, for signed-in staff only', async () => {
      expect(JSON.parse((await getJson(ctx(), '/api/openapi.json')).body)).toMatchObject({ code: 401 });
      const admin = await ctx().login();
      const answer = await getJson(ctx(), '/api/openapi.json', admin);
      expect(answer.status).toBe(200);
      const document = JSON.parse(answer.body) as {
        openapi: string;
        paths: Record<string, Record<string, { summary: string; tags: string[]; security: unknown[]; requestBody?: unknown; responses: Record<string, unknown> }>>;
        components: { securitySchemes: Record<string, unknown> };
      };
      expect(document.openapi).toBe('3.1.0');
      const documented = new Set(Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`)));
      const registered = ctx()
        .app.apiRoutes.filter((route) => route.method !== 'HEAD')
        .map((route) => `${route.method} ${route.url}`);
      expect(registered.filter((route) => !documented.has(route))).toEqual([]);
      const unnamed = Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods)
          .filter(([, operation]) => !/\p{Script=Han}/u.test(operation.summary ?? ''))
          .map(([method]) => `${method} ${path}`),
      );
      expect(unnamed).toEqual([]);
      const heartbeat = document.paths['/api/hotel/device/heartbeat'].post;
      expect(heartbeat.security).toEqual([{ deviceKey: [] }]);
      expect(heartbeat.requestBody).toBeDefined();
      expect(document.components.securitySchemes.deviceKey).toMatchObject({ type: 'apiKey', in: 'header', name: DEVICE_KEY_HEADER });
      const creation = document.paths['/api/sys/user/creation'].post;
      expect(creation).toMatchObject({ summary: '新增用户', tags: ['系统管理 / 用户管理'], security: [{ staffToken: [] }] });
      expect(JSON.stringify(creation.responses['200'])).toContain('"code"');
    });

    it('answers 503 from /api/readyz while a migration is missing, so a balancer keeps traffic away', async () => {
      await ctx()
        .database.db.deleteFrom('kysely_migration' as never)
        .where('name' as never, '=', '009_schedule_planned_at' as never)
        .execute();
      const answer = await getJson(ctx(), '/api/readyz');
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 500, msg: expect.stringContaining('数据库迁移未完成') });
    });
  },
  { metricsToken: METRICS_TOKEN },
  { logger: { level: 'info', stream: logStream } },
);

describe('metrics with no token configured', () => {
  it('are refused to everyone: never public by default', async () => {
    const target = await createTestDatabase(dialects()[0]);
    const t = await startTestApp(target);
    try {
      expect(t.config.metricsToken).toBeUndefined();
      for (const token of [undefined, '', 'anything']) {
        expect(JSON.parse((await getJson(t, '/api/metrics', token)).body)).toMatchObject({ code: 403, msg: expect.stringContaining('METRICS_TOKEN') });
      }
    } finally {
      await t.close();
      await target.drop();
    }
  });

  it('readiness answers 503 when the database is unreachable, while health still answers', async () => {
    const target = await createTestDatabase(dialects()[0]);
    const t = await startTestApp(target);
    try {
      await t.database.db.destroy();
      const ready = await getJson(t, '/api/readyz');
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.body)).toMatchObject({ msg: '数据库不可用', data: { database: 'unreachable' } });
      expect((await getJson(t, '/api/healthz')).status).toBe(200);
    } finally {
      await t.app.close();
      await target.drop();
    }
  });
});
