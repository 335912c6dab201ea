#!/usr/bin/env node
/**
 * `npm test`: type-check, lint (ESLint with no warnings, Prettier's check), unit and API tests (jest: web + server projects), then the browser suite
 * and the cluster suite (three instances behind nginx on PostgreSQL) on the production build. Ends
 * with one line counting every test: "tests: N passed, N failed".
 *
 * The cluster suite needs nginx and TEST_DATABASE_URL: without them it is skipped with a notice,
 * unless REQUIRE_CLUSTER_TEST=1 (CI), where their absence fails the run.
 */
const { spawnSync } = require('node:child_process');
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

function run(title, command, args, env = {}) {
  process.stdout.write(`\n== ${title}: ${command} ${args.join(' ')}\n`);
  const started = Date.now();
  const { status } = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  process.stdout.write(`== ${title}: ${status === 0 ? 'ok' : `failed (exit ${status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return status === 0;
}

// Every suite runs even after another fails, so one run shows every problem; only a failed build
// keeps the browser suite (which drives the build) from running.
const typesOk = run('typecheck', 'npm', ['run', '--silent', 'typecheck']);
const lintOk = run('lint', 'npm', ['run', '--silent', 'lint']);
const unitOk = run('unit and API tests', 'npx', ['jest', '--json', `--outputFile=${jestReport}`]);
const buildOk = run('build', 'npm', ['run', '--silent', 'build']);
const browserOk = buildOk && run('browser tests', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport });
let clusterOk = true;
if (clusterMissing.length === 0) {
  clusterOk = buildOk && run('cluster tests (nginx + 3 instances)', 'npx', ['jest', '--config', 'test/deploy/jest.config.js', '--json', `--outputFile=${deployReport}`]);
} else if (process.env.REQUIRE_CLUSTER_TEST === '1') {
  process.stdout.write(`\n== cluster tests: cannot run without ${clusterMissing.join(' and ')} (required here)\n`);
  clusterOk = false;
} else {
  process.stdout.write(`\n== cluster tests: skipped, needs ${clusterMissing.join(' and ')} (see docs/deploy.md)\n`);
}
const ok = typesOk && lintOk && unitOk && buildOk && browserOk && clusterOk;

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
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`);
process.exit(ok && failed === 0 && passed > 0 ? 0 : 1);
