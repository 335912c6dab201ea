/** Server configuration, read once from the environment. Every value has a safe default. */
import path from 'node:path';
import type { LogLevel } from 'fastify';
import { defaultReaderCount, READER_NICENESS } from './db/sqlite-readers';
import type { DatabaseOptions } from './db/connection';

/**
 * List queries that may run at once on PostgreSQL, per instance. On 2 cores with 4 staff running
 * searches, the shared pool (10) let the searches crowd out the heartbeats; 1 cost lists a third
 * of their throughput; 2 kept both.
 */
const DEFAULT_PG_READ_CONNECTIONS = 2;
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const logLevel = (value: string | undefined, fallback: LogLevel): LogLevel => LOG_LEVELS.find((level) => level === value) ?? fallback;

export interface ServerConfig {
  port: number;
  host: string;
  /** postgres://… selects PostgreSQL; unset uses the embedded SQLite file. */
  databaseUrl?: string;
  sqliteFile: string;
  /** Reader threads for SQLite list queries (db/sqlite-readers.ts); 0 keeps them on the main thread. */
  sqliteReaders: number;
  /** Their scheduling priority (nice, 0-19) below the main thread's, so heartbeats run first when the cores are busy. */
  sqliteReaderNiceness: number;
  /** PostgreSQL runs repeated statements as prepared ones (db/pg-prepared.ts); off for an old PgBouncer in transaction mode. */
  pgPreparedStatements: boolean;
  /** Connections of the PostgreSQL pool for list pages, counts and exports (db/connection.ts); 0 shares the main pool. */
  pgReadConnections: number;
  /** V8's old-generation growth past the live heap, in percent (lib/heap-growth.ts); 0 leaves V8's own. */
  heapGrowingPercent: number;
  /** Built SPA served on the same origin; absent in API-only tests. */
  clientDir?: string;
  adminPassword?: string;
  session: { idleMinutes: number; maxHours: number };
  /** Sign-in throttling (plugins/app/throttle.ts): failures per account and origin, per account, per address. */
  throttle: { userMaxFailures: number; accountMaxFailures: number; ipMaxFailures: number; windowMinutes: number; lockMinutes: number; delayMs: number };
  /** argon2id memory cost in KiB (OWASP: 19456); lowered only in tests. */
  passwordCost: number;
  scheduler: { enabled: boolean; tickMs: number };
  bodyLimitBytes: number;
  /** A request (headers and body) must have arrived within this time, or it is answered 408 and cut. */
  requestTimeoutMs: number;
  /** Behind a load balancer: client address and protocol come from X-Forwarded-For / -Proto. */
  trustProxy: boolean;
  logLevel: string;
  /** Names this process in schedule run logs. */
  instanceId: string;
  /** Bearer token a Prometheus scraper sends to /api/metrics; unset = metrics refused to everyone. */
  metricsToken?: string;
  /**
   * Log level of request lines on hot paths (device heartbeats, probes, scrapes), which arrive
   * thousands of times a second in a hotel group: `warn` keeps them out of an info log.
   */
  hotPathLogLevel: LogLevel;
  /**
   * Devices over MQTT (routes/hotel/device/mqtt.ts): off unless `url` is set, so a machine without
   * a broker keeps the HTTP heartbeat only. Topics are `<topicPrefix>/device/<sn>/…`.
   */
  mqtt: { url?: string; topicPrefix: string; commandTimeoutMs: number };
  /**
   * Heartbeats of devices already online are written together every `flushMs`
   * (services/device-status/last-seen.ts): a crash loses at most this much of their last-seen times.
   */
  heartbeat: { flushMs: number };
  /**
   * When a floor's or a building's devices go offline together (services/device-status/location-alarms.ts):
   * more than `sharePercent` of its devices, counting those that went offline within the last
   * `holdDownMs`, makes one location alarm of them; a location with fewer than `minDevices` never does.
   */
  locationAlarm: { sharePercent: number; minDevices: number; holdDownMs: number };
  /** A request answered after this long is logged at warn with its route and time. */
  slowRequestMs: number;
  /**
   * The event loop held up this long (a synchronous SQLite statement, a disk flush, a CPU-bound
   * step) is logged at warn: every request and heartbeat waited meanwhile, yet none of them is slow
   * by its own clock if it arrived during the hold-up. 0 turns the watch off.
   */
  stallWarnMs: number;
  /** Alarm notifications (services/notification, docs/api/monitor.md). */
  notify: NotifyConfig;
}

export interface NotifyConfig {
  /** This instance sends the outbox's messages; off (`NOTIFY=off`) leaves them to the other instances. */
  enabled: boolean;
  /** Loopback and private addresses may be targets (on-premise receivers; the tests). */
  allowPrivateTargets: boolean;
  /** How often the worker looks for due messages when nothing wakes it. */
  pollMs: number;
  /**
   * Working through a backlog, the share of this process's time delivery may take while the rest
   * of the process is busy (heartbeats during an alarm storm): after a full round the worker rests
   * long enough to leave the remainder to the rest. 1: no pacing.
   */
  deliveryShare: number;
  connectTimeoutMs: number;
  /** One call to a vendor, from its start to the last byte of the answer. */
  timeoutMs: number;
  /** Retries wait a random time up to base * 2^(attempt - 1), at most max (full jitter). */
  retryBaseMs: number;
  retryMaxMs: number;
  /** The console's address (https://hotel.example.com), for links in messages; unset: no links. */
  consoleUrl?: string;
}

const int = (value: string | undefined, fallback: number) => {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) ? parsed : fallback;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): ServerConfig {
  return {
    port: int(env.PORT, 8080),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    sqliteFile: env.SQLITE_FILE ?? path.join(env.DATA_DIR ?? path.join(root, 'data'), 'hotel.db'),
    sqliteReaders: Math.max(0, int(env.SQLITE_READERS, defaultReaderCount())),
    sqliteReaderNiceness: Math.min(19, Math.max(0, int(env.SQLITE_READER_NICE, READER_NICENESS))),
    pgPreparedStatements: env.PG_PREPARED_STATEMENTS !== 'off',
    pgReadConnections: Math.max(0, int(env.PG_READ_CONNECTIONS, DEFAULT_PG_READ_CONNECTIONS)),
    heapGrowingPercent: Math.max(0, int(env.HEAP_GROWING_PERCENT, 75)),
    clientDir: env.CLIENT_DIR ?? path.join(root, 'dist', 'client'),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    session: { idleMinutes: int(env.SESSION_IDLE_MINUTES, 120), maxHours: int(env.SESSION_MAX_HOURS, 12) },
    throttle: {
      userMaxFailures: int(env.LOGIN_USER_MAX_FAILURES, 5),
      accountMaxFailures: int(env.LOGIN_ACCOUNT_MAX_FAILURES, 20),
      ipMaxFailures: int(env.LOGIN_IP_MAX_FAILURES, 30),
      windowMinutes: 15,
      lockMinutes: int(env.LOGIN_LOCK_MINUTES, 15),
      delayMs: int(env.LOGIN_DELAY_MS, 400),
    },
    passwordCost: int(env.PASSWORD_COST, 19456),
    scheduler: { enabled: env.SCHEDULER !== 'off', tickMs: int(env.SCHEDULER_TICK_MS, 1000) },
    bodyLimitBytes: 256 * 1024,
    requestTimeoutMs: int(env.REQUEST_TIMEOUT_MS, 30_000),
    trustProxy: env.TRUST_PROXY === '1',
    logLevel: env.LOG_LEVEL ?? 'info',
    instanceId: env.INSTANCE_ID ?? `${process.pid}`,
    metricsToken: env.METRICS_TOKEN || undefined,
    hotPathLogLevel: logLevel(env.HOT_PATH_LOG_LEVEL, 'warn'),
    mqtt: {
      url: env.MQTT_URL || undefined,
      topicPrefix: env.MQTT_TOPIC_PREFIX || 'hotel',
      commandTimeoutMs: int(env.MQTT_COMMAND_TIMEOUT_SECONDS, 60) * 1000,
    },
    heartbeat: { flushMs: Math.max(10, int(env.HEARTBEAT_FLUSH_MS, 1000)) },
    locationAlarm: {
      sharePercent: Math.min(100, Math.max(1, int(env.LOCATION_ALARM_SHARE_PERCENT, 50))),
      minDevices: Math.max(1, int(env.LOCATION_ALARM_MIN_DEVICES, 5)),
      holdDownMs: Math.max(0, int(env.LOCATION_ALARM_HOLD_DOWN_SECONDS, 60)) * 1000,
    },
    slowRequestMs: int(env.SLOW_REQUEST_MS, 2000),
    stallWarnMs: Math.max(0, int(env.EVENT_LOOP_STALL_MS, 1000)),
    notify: {
      enabled: env.NOTIFY !== 'off',
      allowPrivateTargets: env.NOTIFY_ALLOW_PRIVATE_TARGETS === '1',
      pollMs: Math.max(50, int(env.NOTIFY_POLL_MS, 1000)),
      deliveryShare: Math.min(100, Math.max(1, int(env.NOTIFY_DELIVERY_SHARE_PERCENT, 10))) / 100,
      connectTimeoutMs: Math.max(100, int(env.NOTIFY_CONNECT_TIMEOUT_MS, 5000)),
      timeoutMs: Math.max(100, int(env.NOTIFY_TIMEOUT_MS, 10_000)),
      retryBaseMs: 10_000,
      retryMaxMs: 600_000,
      consoleUrl: env.NOTIFY_CONSOLE_URL?.replace(/\/+$/, '') || undefined,
    },
  };
}

/** The database as the configuration describes it (the product and its tests open it alike). */
export const databaseOptionsOf = (config: ServerConfig): DatabaseOptions => ({
  url: config.databaseUrl,
  sqliteFile: config.sqliteFile,
  sqliteReaders: config.sqliteReaders,
  sqliteReaderNiceness: config.sqliteReaderNiceness,
  pgPreparedStatements: config.pgPreparedStatements,
  pgReadConnections: config.pgReadConnections,
});
