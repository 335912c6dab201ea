/**
 * Audit-log bench (issue 9): prints figures, asserts nothing. For each database (a temporary SQLite
 * file, and a temporary PostgreSQL database when one answers) it starts the built server, fills the
 * operation log with BENCH_AUDIT_ROWS records (5,000,000 by default) computing their hash chain here,
 * then measures, for one client, page 1 and filtered pages of /monitor/operation/inquire (p50/p95),
 * a .xlsx export of BENCH_AUDIT_EXPORT_ROWS records (time and the server's peak RSS) and, unless
 * BENCH_AUDIT_INTEGRITY=0, the integrity check of the whole chain.
 *
 *   BENCH_AUDIT_ROWS=200000 BENCH_AUDIT_EXPORT_ROWS=50000 node scripts/bench/audit.js   # quick run
 *
 * Needs `npm run build` first. BENCH_AUDIT_DATABASES=sqlite,postgres picks the databases;
 * BENCH_AUDIT_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres) is where a temporary
 * database is created and dropped.
 */
const { withTemporaryPostgres, withTemporarySqlite } = require('./temporary-databases');
const { call, startServer } = require('./server');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 5_000_000);
const EXPORT_ROWS = Math.min(ROWS, Number(process.env.BENCH_AUDIT_EXPORT_ROWS ?? 1_000_000));
const REQUESTS = Number(process.env.BENCH_AUDIT_REQUESTS ?? 50);
const DATABASES = (process.env.BENCH_AUDIT_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const PG_URL = process.env.BENCH_AUDIT_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const INTEGRITY = process.env.BENCH_AUDIT_INTEGRITY !== '0';
const DAY = 86_400_000;

/** What a hotel's back office writes: a few modules, their actions, 200 operators, mostly successes. */
const ACTIONS = [
  ['用户管理', '新增用户', '/sys/user/creation', 'user'],
  ['用户管理', '编辑用户', '/sys/user/edit', 'user'],
  ['用户管理', '重置密码', '/sys/user/password/reset', 'user'],
  ['角色管理', '编辑角色', '/sys/role/edit', 'role'],
  ['角色管理', '角色授权', '/sys/role/auth', 'role'],
  ['设备管理', '新增设备', '/hotel/device/creation', 'device'],
  ['设备管理', '编辑设备', '/hotel/device/edit', 'device'],
  ['设备管理', '设备离线', '', 'device'],
  ['设备管理', '设备上线', '/hotel/device/heartbeat', 'device'],
  ['高级设置', '编辑配置', '/hotel/advanced/edit', 'advanced'],
  ['定时任务', '立即执行', '/sys/schedule/run', 'schedule'],
  ['数据字典', '编辑字典', '/sys/dict/edit', 'dict'],
];
const OPERATORS = Array.from({ length: 200 }, (_, i) => `staff${String(i + 1).padStart(3, '0')}`);
/** The hashed columns in the server's canonical order, and its hash, from the build (src/server/lib/audit-chain.ts). */
const { hashedColumns, recordHash } = require('../../dist/node/server/lib/audit-chain.js');
const COLUMNS = hashedColumns.operation;
const SQL_COLUMNS = [...COLUMNS, 'prevHash', 'hash'].map((c) => c.replace(/[A-Z]/g, (l) => `_${l.toLowerCase()}`));

/** A POST that may take minutes (checking millions of records): no client-side time limit. */
function callLong(base, key, token) {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${key}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve(JSON.parse(body).data));
    });
    request.on('error', reject);
    request.end('{}');
  });
}

/** One client, one request after another: the latency a person paging through the log sees. */
async function measure(label, makeRequest) {
  const latencies = [];
  let answer;
  for (let i = 0; i < REQUESTS; i += 1) {
    const t0 = process.hrtime.bigint();
    answer = await makeRequest(i);
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
  const total = answer ? `${answer.total}${answer.totalIsLowerBound ? '+' : ''}` : '';
  console.log(`  ${label.padEnd(46)} p50 ${pct(50).padStart(7)} ms  p95 ${pct(95).padStart(7)} ms  total ${total}`);
}

const memory = (pid) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
};

/** Deterministic pseudo-random numbers, so every run writes the same log. */
function random(seed) {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** The records, in chain order, with their hashes; `at` spreads them over the last 170 days. */
function* records(count) {
  const next = random(42);
  const end = Date.now() - 60_000;
  const start = end - 170 * DAY;
  const step = (end - start) / count;
  let prevHash = '';
  for (let i = 1; i <= count; i += 1) {
    const [module, action, apiPath, targetType] = ACTIONS[Math.floor(next() * ACTIONS.length)];
    const operatorName = OPERATORS[Math.floor(next() * OPERATORS.length)];
    const roll = next();
    const outcome = roll < 0.9 ? 'success' : roll < 0.98 ? 'refused' : 'failed';
    const code = outcome === 'success' ? 200 : outcome === 'failed' ? 500 : [400, 403, 409][i % 3];
    const targetId = String(1 + Math.floor(next() * 100_000));
    const record = {
      id: i,
      at: Math.floor(start + i * step),
      operatorType: 'user',
      operatorId: OPERATORS.indexOf(operatorName) + 2,
      operatorName,
      module,
      action,
      path: apiPath,
      targetType,
      targetId,
      targetLabel: `${targetType}-${targetId}`,
      outcome,
      code,
      msg: outcome === 'success' ? '保存成功' : outcome === 'failed' ? '服务器内部错误，请稍后重试' : '没有权限执行该操作',
      ip: `10.0.${i % 250}.${(i * 7) % 250}`,
      durationMs: 2 + (i % 40),
      params: `{"id":${targetId},"remark":"批量生成的记录"}`,
      changes: outcome === 'success' && action.startsWith('编辑') ? '[{"field":"remark","title":"备注","before":"","after":"批量生成的记录"}]' : '[]',
    };
    const hash = recordHash('operation', record, prevHash);
    yield [...COLUMNS.map((c) => record[c]), prevHash, hash];
    prevHash = hash;
  }
}

/**
 * Fills an empty operation log of SQLite through its own connection: indexes dropped, rows in big
 * transactions, indexes rebuilt. Answers the milliseconds the index rebuild took.
 */
async function fillSqlite(file, rows = ROWS) {
  const Database = require('better-sqlite3');
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  const indexes = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sys_operation_log' AND sql IS NOT NULL").all();
  for (const index of indexes) db.exec(`DROP INDEX ${index.name}`);
  const perStatement = 500;
  const placeholders = `(${SQL_COLUMNS.map(() => '?').join(',')})`;
  const insertMany = db.prepare(`INSERT INTO sys_operation_log (${SQL_COLUMNS.join(',')}) VALUES ${Array(perStatement).fill(placeholders).join(',')}`);
  const insertOne = db.prepare(`INSERT INTO sys_operation_log (${SQL_COLUMNS.join(',')}) VALUES ${placeholders}`);
  let batch = [];
  let last;
  const flush = db.transaction((batchRows) => {
    let i = 0;
    for (; i + perStatement <= batchRows.length; i += perStatement) insertMany.run(batchRows.slice(i, i + perStatement).flat());
    for (; i < batchRows.length; i += 1) insertOne.run(batchRows[i]);
  });
  for (const row of records(rows)) {
    batch.push(row);
    last = row;
    if (batch.length === 100_000) {
      flush(batch);
      batch = [];
    }
  }
  flush(batch);
  const rebuilt = Date.now();
  for (const index of indexes) db.exec(index.sql);
  db.exec('ANALYZE');
  db.prepare("UPDATE sys_audit_chain SET head_id = ?, head_hash = ?, head_at = ? WHERE chain = 'operation'").run(last[0], last[19], last[1]);
  db.close();
  return Date.now() - rebuilt;
}

async function fillPostgres(url, rows = ROWS) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  const { rows: indexes } = await client.query("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'sys_operation_log' AND indexname <> 'sys_operation_log_pkey'");
  for (const index of indexes) await client.query(`DROP INDEX ${index.indexname}`);
  const types = ['bigint', 'bigint', 'text', 'int', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'int', 'text', 'text', 'int', 'text', 'text', 'text', 'text'];
  const insert = `INSERT INTO sys_operation_log (${SQL_COLUMNS.join(',')}) SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(',')})`;
  let columns = SQL_COLUMNS.map(() => []);
  let last;
  const flush = async () => {
    if (columns[0].length > 0) await client.query(insert, columns);
    columns = SQL_COLUMNS.map(() => []);
  };
  await client.query('BEGIN');
  let inTransaction = 0;
  for (const row of records(rows)) {
    row.forEach((value, i) => columns[i].push(value));
    last = row;
    if (columns[0].length === 20_000) {
      await flush();
      inTransaction += 20_000;
      if (inTransaction >= 500_000) {
        await client.query('COMMIT');
        await client.query('BEGIN');
        inTransaction = 0;
      }
    }
  }
  await flush();
  await client.query('COMMIT');
  const rebuilt = Date.now();
  for (const index of indexes) await client.query(index.indexdef);
  // What autovacuum does to an insert-only table: without it the visibility map is empty and
  // every index-only count would read the table too.
  await client.query('VACUUM ANALYZE sys_operation_log');
  await client.query("UPDATE sys_audit_chain SET head_id = $1, head_hash = $2, head_at = $3 WHERE chain = 'operation'", [last[0], last[19], last[1]]);
  await client.end();
  return Date.now() - rebuilt;
}

async function benchOne(name, env, fill) {
  console.log(`\n== Audit log on ${name}: ${ROWS.toLocaleString('en')} operation records (${os.cpus().length} cores)`);
  // The first start creates the schema and the administrator; the rows go in while it is stopped.
  const first = await startServer(env);
  await first.stop();
  const t0 = Date.now();
  const indexMs = await fill();
  console.log(`  seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s (of which index rebuild ${(indexMs / 1000).toFixed(1)} s)`);

  const server = await startServer(env);
  try {
    const { token } = await call(server.base, '/sys/user/verify', { userName: 'admin', password: server.password });
    const page =
      (params, current = 1) =>
      () =>
        call(server.base, '/monitor/operation/inquire', { size: 20, current, params }, token);
    const newest = (await page({})()).records[0];
    const dayStart = newest.at - 85 * DAY;
    await measure('page 1, no filter', page({}));
    await measure('page 1, operator', (i) => page({ operatorName: OPERATORS[i % OPERATORS.length] })());
    await measure('page 1, module + action', (i) => page({ module: ACTIONS[i % ACTIONS.length][0], action: ACTIONS[i % ACTIONS.length][1] })());
    await measure('page 1, outcome failed (2 %)', page({ outcome: 'failed' }));
    await measure('page 1, one day (time range)', (i) => page({ startAt: dayStart - (i % 30) * DAY, endAt: dayStart - (i % 30) * DAY + DAY })());
    await measure('page 1, operator + 30 days', (i) => page({ operatorName: OPERATORS[i % OPERATORS.length], startAt: dayStart - 30 * DAY, endAt: dayStart })());
    await measure('page 1, one target (device history)', (i) => page({ targetType: 'device', targetId: String(1 + ((i * 7919) % 100_000)) })());
    await measure('page 500 (last of the capped count), no filter', page({}, 500));
    await measure('page 500, operator', (i) => page({ operatorName: OPERATORS[i % OPERATORS.length] }, 500)());

    // The newest EXPORT_ROWS records: a time range starting at the first of them.
    const first = await call(server.base, '/monitor/operation/detail', { id: newest.id - EXPORT_ROWS + 1 }, token);
    const before = memory(server.pid);
    // The peak below is the process's lifetime peak: before the export it is the peak of start-up and paging.
    const started = Date.now();
    const response = await fetch(`${server.base}/monitor/operation/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ params: { startAt: first.at } }),
    });
    let bytes = 0;
    for await (const chunk of response.body) bytes += chunk.length;
    const after = memory(server.pid);
    console.log(
      `  export ${EXPORT_ROWS.toLocaleString('en')} rows to .xlsx: ${((Date.now() - started) / 1000).toFixed(1)} s, ${(bytes / 1e6).toFixed(1)} MB; ` +
        `server RSS ${before.rss.toFixed(0)} MB before (peak so far ${before.peak.toFixed(0)} MB), peak ${after.peak.toFixed(0)} MB after`,
    );
    if (INTEGRITY) {
      const t1 = Date.now();
      const result = await callLong(server.base, '/monitor/operation/integrity', token);
      console.log(
        `  check the chain's integrity: ${result.checked.toLocaleString('en')} records in ${((Date.now() - t1) / 1000).toFixed(1)} s, ${result.ok ? 'intact' : `broken at ${result.firstBroken.id}`}`,
      );
    }
  } finally {
    await server.stop();
  }
}

async function run() {
  if (!fs.existsSync(path.join(root, 'dist/node/server/main.js'))) {
    console.log('\n== Audit log: dist/node missing, run `npm run build` first');
    return;
  }
  if (DATABASES.includes('sqlite')) {
    await withTemporarySqlite('hotel-bench-audit', (dir) => benchOne('SQLite', { DATA_DIR: dir, DATABASE_URL: '' }, () => fillSqlite(path.join(dir, 'hotel.db'))));
  }
  if (DATABASES.includes('postgres')) {
    await withTemporaryPostgres(PG_URL, 'hotel_bench_audit', 'Audit log', (url) => benchOne('PostgreSQL', { DATABASE_URL: url }, () => fillPostgres(url)));
  }
}

module.exports = { run, fillSqlite, fillPostgres };

if (require.main === module) {
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
