/**
 * Issue 8: schema-driven fuzzing. For every route of the route table that takes input, invalid
 * requests are generated from its contract schema (support/invalid-requests.ts) and sent as the
 * administrator, so authorization passes and validation is what is tested. Every answer must be
 * HTTP 200 with code 400 and a Chinese msg, never a 500; the database must be unchanged after
 * each route's batch (every table fingerprinted: rows compared one by one); and no refused request
 * may write a log line at error level or above (input from outside never logs above warn:
 * docs/architecture.md, logging). Besides the random cases, every id-like field of every route is
 * sent past the integer columns' limit, with the route's other ids at the limit.
 *
 * FUZZ_RUNS sets the cases per route (default 150); FUZZ_SEED replays a run. The figures (routes,
 * cases, answers, 500s, changed rows) are printed at the end.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { describeOnEachDatabase, type TestApp } from './support/harness';
import { idLimitBodies, idLimitQueries, invalidBodies, invalidQueries, type InvalidCase, type SchemaNode } from './support/invalid-requests';
import { captureLog } from './support/log-capture';
import { contract } from '../../src/contract';
import type { EndpointSpec } from '../../src/contract/endpoint';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const CJK = /[\u4e00-\u9fff]/;
/** Columns a request may change without changing data: the caller's own session heartbeat. */
const VOLATILE_COLUMNS = new Set(['last_seen_at', 'lastSeenAt']);
const VOLATILE_TABLES = new Set(['sys_session']);
/**
 * The audit trail grows by design: every refused call leaves one record (its own tests check the
 * record). Everything else must be untouched.
 */
const AUDIT_TABLES = new Set(['sys_operation_log', 'sys_login_log', 'sys_audit_chain']);

type Fingerprint = Map<string, Map<string, number>>;

async function tableNames(t: TestApp): Promise<string[]> {
  const query =
    t.database.dialect === 'sqlite'
      ? sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`
      : sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`;
  return (await query.execute(t.database.db)).rows.map((row) => row.name);
}

/** Every row of every table, as a multiset of canonical JSON per table. */
async function fingerprint(t: TestApp): Promise<Fingerprint> {
  const result: Fingerprint = new Map();
  for (const table of (await tableNames(t)).filter((name) => !AUDIT_TABLES.has(name))) {
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(t.database.db);
    const counts = new Map<string, number>();
    for (const row of rows) {
      const kept = Object.keys(row)
        .sort()
        .filter((key) => !(VOLATILE_TABLES.has(table) && VOLATILE_COLUMNS.has(key)))
        .map((key) => [key, row[key] instanceof Date ? row[key].toISOString() : row[key]]);
      const line = JSON.stringify(kept);
      counts.set(line, (counts.get(line) ?? 0) + 1);
    }
    result.set(table, counts);
  }
  return result;
}

/** Rows present on one side only, summed over every table. */
function changedRows(before: Fingerprint, after: Fingerprint): number {
  let changed = 0;
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(table) ?? new Map<string, number>();
    const b = after.get(table) ?? new Map<string, number>();
    for (const line of new Set([...a.keys(), ...b.keys()])) changed += Math.abs((a.get(line) ?? 0) - (b.get(line) ?? 0));
  }
  return changed;
}

interface Figures {
  routes: number;
  skipped: string[];
  cases: number;
  idLimitCases: number;
  answers: Record<string, number>;
  errors500: number;
  changedRows: number;
  errorLines: number;
}

/** The server's log, at warn and above: what a refused request may write is checked per route. */
const log = captureLog();
const levelOf = (line: string) => (JSON.parse(line) as { level: number }).level;
/** pino's level of `error`. */
const ERROR_LEVEL = 50;

function fuzzEveryRoute(ctx: () => TestApp): void {
  const figures: Figures = { routes: 0, skipped: [], cases: 0, idLimitCases: 0, answers: {}, errors500: 0, changedRows: 0, errorLines: 0 };
  let adminId: number;

  beforeAll(async () => {
    adminId = (await ctx().database.db.selectFrom('sysUser').select('id').where('userName', '=', 'admin').executeTakeFirstOrThrow()).id;
  });

  afterAll(() => {
    // The closing note of issue 8 quotes these figures.
    console.log(
      `fuzz [${ctx().database.dialect}]: ${figures.routes} routes fuzzed (${figures.skipped.length} take no input: ${figures.skipped.join(', ')}), ` +
        `${figures.cases} cases (${RUNS} random per route, ${figures.idLimitCases} with an id past the limit), answers ${JSON.stringify(figures.answers)}, ` +
        `500s: ${figures.errors500}, changed rows: ${figures.changedRows}, error log lines: ${figures.errorLines}`,
    );
  });

  it('answers every invalid request with a Chinese 400, writes nothing and logs no error', async () => {
    const routes = ctx().app.apiRoutes.filter((route) => route.method === 'POST' || route.method === 'GET');
    expect(routes.length).toBeGreaterThanOrEqual(Object.keys(contract).length);
    const failures: string[] = [];

    for (const route of routes) {
      const path = route.url.slice('/api'.length);
      const key = route.method === 'GET' ? `GET ${path}` : path;
      const spec = (contract as Record<string, EndpointSpec>)[key];
      if (!spec?.body) {
        figures.skipped.push(key);
        continue;
      }
      figures.routes += 1;
      const schema = spec.body as unknown as SchemaNode;
      const cases = route.method === 'GET' ? invalidQueries(schema) : invalidBodies(schema);
      // A session of its own per route, so that a route which ended its session (had a fix
      // regressed) cannot turn the answers of every later route into 401s.
      const admin = await ctx().app.sessions.issue(adminId, '127.0.0.1');
      const before = await fingerprint(ctx());
      const logFrom = log.lines.length;

      const send = async ({ text }: InvalidCase) =>
        route.method === 'GET'
          ? ctx().app.inject({ method: 'GET', url: `${route.url}?${text}`, headers: { authorization: `Bearer ${admin}` } })
          : ctx().app.inject({ method: 'POST', url: route.url, headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, payload: text });

      /** Sends one case and answers whether it was refused as it must be. */
      const refusedAsItMust = async (invalid: InvalidCase) => {
        const response = await send(invalid);
        figures.cases += 1;
        const body = response.statusCode === 200 ? response.json<{ code: number; msg: string }>() : null;
        const label = body ? String(body.code) : `HTTP ${response.statusCode}`;
        figures.answers[label] = (figures.answers[label] ?? 0) + 1;
        if (body?.code === 500 || response.statusCode >= 500) figures.errors500 += 1;
        return body !== null && body.code === 400 && CJK.test(body.msg);
      };

      for (const invalid of route.method === 'GET' ? idLimitQueries(schema) : idLimitBodies(schema, SEED ?? 29)) {
        figures.idLimitCases += 1;
        if (!(await refusedAsItMust(invalid))) {
          const answer = await send(invalid);
          failures.push(`${key}: ${invalid.mutation} -> HTTP ${answer.statusCode} ${answer.body.slice(0, 200)} (sent ${invalid.text.slice(0, 200)})`);
        }
      }

      const outcome = await fc.check(fc.asyncProperty(cases, refusedAsItMust), { numRuns: RUNS, endOnFailure: true, ...(SEED === undefined ? {} : { seed: SEED }) });
      if (outcome.failed) {
        const [invalid] = outcome.counterexample!;
        const answer = await send(invalid);
        failures.push(`${key}: ${invalid.mutation} -> HTTP ${answer.statusCode} ${answer.body.slice(0, 200)} (seed ${outcome.seed}, sent ${invalid.text.slice(0, 200)})`);
      }

      const changed = changedRows(before, await fingerprint(ctx()));
      figures.changedRows += changed;
      if (changed > 0) failures.push(`${key}: ${changed} rows changed by refused requests`);

      const errorLines = log.lines.slice(logFrom).filter((line) => levelOf(line) >= ERROR_LEVEL);
      figures.errorLines += errorLines.length;
      for (const line of errorLines.slice(0, 3)) failures.push(`${key}: a refused request logged at error: ${line.slice(0, 300)}`);
    }

    expect(failures).toEqual([]);
    expect(figures.errors500).toBe(0);
    expect(figures.errorLines).toBe(0);
  }, 300_000);
}

describeOnEachDatabase('fuzzing every route with invalid input', fuzzEveryRoute, {}, { logger: { level: 'warn', stream: log.stream } });
