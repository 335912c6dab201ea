#!/usr/bin/env node
/**
 * `npm test`: two lanes side by side. Checks: type-check, lint (ESLint with no warnings, Prettier's
 * check), unit and API tests (jest: web + server projects). Product: the production build, its
 * bundle budgets (scripts/bundle-report.js), the browser suite and the cluster suite (three
 * instances behind nginx on PostgreSQL) on it. Ends with
 * one line counting every test: "tests: N passed, N failed".
 *
 * The cluster suite needs nginx and TEST_DATABASE_URL: without them it is skipped with a notice,
 * unless REQUIRE_CLUSTER_TEST=1 (CI), where their absence fails the run.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
// Not test-results/: Playwright empties that folder when it starts.
const results = path.join(root, 'test-reports');
fs.mkdirSync(results, { recursive: true });
const jestReport = path.join(results, 'jest.json');
const e2eReport = path.join(results, 'e2e.json');
const deployReport = path.join(results, 'deploy.json');
for (const file of [jestReport, e2eReport, deployReport]) fs.rmSync(file, { force: true });

const nginxFound = spawnSync(process.env.NGINX_PATH || 'nginx', ['-v'], { stdio: 'ignore' }).status === 0;
const clusterMissing = [nginxFound ? null : 'nginx', process.env.TEST_DATABASE_URL ? null : 'TEST_DATABASE_URL'].filter(Boolean);

/**
 * Runs one step with its output prefixed by its lane, so two lanes can share the terminal and a
 * hung step still shows where it is.
 */
function run(lane, title, command, args, env = {}) {
  const say = (text) => process.stdout.write(`[${lane}] ${text}\n`);
  say(`== ${title}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0', ...env } });
    for (const stream of [child.stdout, child.stderr]) {
      let pending = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop();
        for (const line of lines) say(line);
      });
      stream.on('end', () => pending && say(pending));
    }
    child.on('close', (status) => {
      say(`== ${title}: ${status === 0 ? 'ok' : `failed (exit ${status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      resolve(status === 0);
    });
  });
}

// Two lanes run side by side: each is mostly one busy process (tsc, eslint, jest in band; webpack,
// one browser worker, the cluster), and both wait a lot on databases, timers and sockets, so on two
// cores they take little longer than the longer lane alone. Nothing is shared between them: every
// server suite, the browser suite and the cluster each use their own database, port and topic prefix.
// Every step runs even after another fails, so one run shows every problem; only a failed build
// keeps the browser and cluster suites (which drive the build) from running.
async function checksLane() {
  const typesOk = await run('checks', 'typecheck', 'npm', ['run', '--silent', 'typecheck']);
  const lintOk = await run('checks', 'lint', 'npm', ['run', '--silent', 'lint']);
  const unitOk = await run('checks', 'unit and API tests', 'npx', ['jest', '--json', `--outputFile=${jestReport}`]);
  return typesOk && lintOk && unitOk;
}

async function productLane() {
  const buildOk = await run('product', 'build', 'npm', ['run', '--silent', 'build']);
  // Nothing else notices a route growing past its budget; the report takes under a second.
  const bundleOk = buildOk && (await run('product', 'bundle budgets', 'node', ['scripts/bundle-report.js']));
  const browserOk = buildOk && (await run('product', 'browser tests', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport }));
  if (clusterMissing.length === 0) {
    const clusterOk =
      buildOk && (await run('product', 'cluster tests (nginx + 3 instances)', 'npx', ['jest', '--config', 'test/deploy/jest.config.js', '--json', `--outputFile=${deployReport}`]));
    return bundleOk && browserOk && clusterOk;
  }
  if (process.env.REQUIRE_CLUSTER_TEST === '1') {
    process.stdout.write(`[product] == cluster tests: cannot run without ${clusterMissing.join(' and ')} (required here)\n`);
    return false;
  }
  process.stdout.write(`[product] == cluster tests: skipped, needs ${clusterMissing.join(' and ')} (see docs/deploy.md)\n`);
  return bundleOk && browserOk;
}

function count() {
  let passed = 0;
  let failed = 0;
  for (const report of [jestReport, deployReport]) {
    if (!fs.existsSync(report)) continue;
    const jest = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed += jest.numPassedTests;
    failed += jest.numFailedTests;
  }
  if (fs.existsSync(e2eReport)) {
    const { stats } = JSON.parse(fs.readFileSync(e2eReport, 'utf8'));
    passed += stats.expected;
    failed += stats.unexpected + (stats.flaky ?? 0);
  }
  return { passed, failed };
}

const started = Date.now();
Promise.all([checksLane(), productLane()]).then(([checksOk, productOk]) => {
  const { passed, failed } = count();
  process.stdout.write(`\nall suites in ${((Date.now() - started) / 1000).toFixed(0)} s\ntests: ${passed} passed, ${failed} failed\n`);
  process.exit(checksOk && productOk && failed === 0 && passed > 0 ? 0 : 1);
});
