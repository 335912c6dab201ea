/**
 * Server test harness: a real app on a real database. Each suite gets a fresh SQLite file, and —
 * when TEST_DATABASE_URL is set (CI sets it) — a fresh PostgreSQL database too, so every server
 * test runs on both dialects.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createPostgresDatabase } from '../../support/postgres-database';
import { databaseOptionsOf, loadConfig, type ServerConfig } from '../../../src/server/config';
import { openDatabase, type DatabaseHandle, type DatabaseOptions } from '../../../src/server/db/connection';
import type { Dialect } from '../../../src/server/db/dialect';
import { seedIfEmpty } from '../../../src/server/services/builtins/seed';
import { buildApp, closeApp } from '../../../src/server/app';
import type { Envelope } from '../../../src/contract/constants';
import type { BodyOf, DataOf, EndpointKey } from '../../../src/contract';

export const ADMIN_PASSWORD = 'Adm1n-Test-Passw0rd';
export const SETUP_TIMEOUT_MS = 30_000;

export interface TestDatabase {
  dialect: Dialect;
  url?: string;
  sqliteFile: string;
  drop(): Promise<void>;
}

export const dialects = (): Dialect[] => (process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite']);

/** A describe that runs only with the PostgreSQL half of the suite on (TEST_DATABASE_URL). */
export const describeOnPostgres = dialects().includes('postgres') ? describe : describe.skip;

/**
 * Opens database handles on a throw-away PostgreSQL database of the enclosing describe, with the
 * given options; every handle is closed, and the database dropped, after the describe.
 */
export function postgresHandles(): (options: Omit<DatabaseOptions, 'url' | 'sqliteFile'>) => Promise<DatabaseHandle> {
  let target: TestDatabase;
  const opened: DatabaseHandle[] = [];
  beforeAll(async () => {
    target = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    for (const handle of opened) await handle.close();
    await target.drop();
  });
  return async (options) => {
    const handle = await openDatabase({ url: target.url, sqliteFile: target.sqliteFile, ...options });
    opened.push(handle);
    return handle;
  };
}

export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-test-'));
  const sqliteFile = path.join(dir, 'test.db');
  if (dialect === 'sqlite') {
    return { dialect, sqliteFile, drop: () => Promise.resolve(fs.rmSync(dir, { recursive: true, force: true })) };
  }
  const database = await createPostgresDatabase('hotel_test');
  return {
    dialect,
    url: database.url,
    sqliteFile,
    drop: async () => {
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: ServerConfig;
  /** POST (or GET for "GET /…" keys) an endpoint of the contract, with an optional bearer token. */
  call<K extends EndpointKey>(key: K, body?: BodyOf<K> | Record<string, unknown> | null, token?: string): Promise<Envelope<DataOf<K>>>;
  /** Signs in and answers the token. */
  login(userName?: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Extra routes or hooks registered before the app is ready (e.g. a route with no resource). */
  extend?: (app: FastifyInstance) => void;
  logger?: boolean | object;
}

export async function startTestApp(target: TestDatabase, overrides: Partial<ServerConfig> = {}, options: StartOptions = {}): Promise<TestApp> {
  const base = loadConfig({}, os.tmpdir());
  const config: ServerConfig = {
    ...base,
    databaseUrl: target.url,
    sqliteFile: target.sqliteFile,
    clientDir: undefined,
    passwordCost: 1024,
    throttle: { ...base.throttle, delayMs: 0 },
    scheduler: { enabled: false, tickMs: 50 },
    ...overrides,
  };
  const database = await openDatabase({ ...databaseOptionsOf(config), poolSize: 4 });
  const app = await buildApp({ config, database, logger: options.logger ?? false });
  options.extend?.(app);
  await seedIfEmpty(database.db, () => app.passwords.hash(ADMIN_PASSWORD));
  await app.ready();

  const call: TestApp['call'] = async (key, body, token) => {
    const isGet = key.startsWith('GET ');
    const url = `/api${key.replace(/^GET /, '')}`;
    const response = await app.inject({
      method: isGet ? 'GET' : 'POST',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(isGet ? { query: (body ?? {}) as Record<string, string> } : { payload: (body ?? {}) as object }),
    });
    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${response.body}`);
    return response.json();
  };
  let closing: Promise<void> | undefined;
  const login: TestApp['login'] = async (userName = 'admin', password = ADMIN_PASSWORD) => {
    const answer = await call('/sys/user/verify', { userName, password });
    if (answer.code !== 200) throw new Error(`login ${userName} failed: ${answer.code} ${answer.msg}`);
    return answer.data.token;
  };
  return {
    app,
    database,
    config,
    call,
    login,
    // Once only: a test may stop an instance itself before the describe's teardown closes it.
    close: () => (closing ??= closeApp(app, database)),
  };
}

/**
 * Two apps on one throw-away database of the enclosing describe, as two API instances behind a
 * balancer (each its own pool, listeners and instance id, api-1 and api-2); `instances()` gives
 * them inside tests. Both are closed, and the database dropped, after the describe.
 */
export function twoInstances(dialect: Dialect = 'postgres', overrides: Partial<ServerConfig> = {}): () => { a: TestApp; b: TestApp } {
  let target: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    target = await createTestDatabase(dialect);
    a = await startTestApp(target, { instanceId: 'api-1', ...overrides });
    b = await startTestApp(target, { instanceId: 'api-2', ...overrides });
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await target?.drop();
  }, SETUP_TIMEOUT_MS);
  return () => ({ a, b });
}

/**
 * A fresh database of `dialect` and an app on it for the enclosing describe, closed and dropped
 * after it; the answer gives the TestApp inside tests.
 */
export function testAppOn(dialect: Dialect, overrides: Partial<ServerConfig> = {}, options: StartOptions = {}): () => TestApp {
  let target: TestDatabase;
  let current: TestApp;
  // Creating a database and running every migration takes seconds on PostgreSQL, more on a busy
  // machine: setup and teardown get their own budget, the tests keep jest's default.
  beforeAll(async () => {
    target = await createTestDatabase(dialect);
    current = await startTestApp(target, overrides, options);
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await current?.close();
    await target?.drop();
  }, SETUP_TIMEOUT_MS);
  return () => current;
}

/**
 * Runs a suite once per available dialect with a fresh database and app; `ctx()` gives the
 * current TestApp inside tests.
 */
export function describeOnEachDatabase(title: string, suite: (ctx: () => TestApp) => void, overrides: Partial<ServerConfig> = {}, options: StartOptions = {}): void {
  for (const dialect of dialects()) {
    describe(`${title} [${dialect}]`, () => {
      suite(testAppOn(dialect, overrides, options));
    });
  }
}
