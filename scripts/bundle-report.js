#!/usr/bin/env node
/**
 * Gzip sizes of the built client (dist/client) against its budgets (docs/client.md, bundle budget):
 * - the login route (everything index.html loads: entry scripts and stylesheets) at most 250 KB;
 * - the shell chunk (shell.*.js + .css), and also everything the shell loads beyond the login
 *   route (its chunk plus the shared library chunks it pulls in), under 60 KB; each screen chunk
 *   (view-*, and the other named lazy chunks such as menu-search) under 60 KB;
 * - libraries loaded only where they belong: echarts (with zrender) only by the panel, pinyin-pro
 *   only by the menu search, dayjs never on the login route.
 * Shared chunks (library code several chunks use, such as antd's table) are listed without a
 * limit. Which files a chunk group loads and which packages each file holds come from
 * dist/bundle-manifest.json, written by the production build (webpack.config.ts). Prints a table
 * and sets exit code 1 when a budget or a placement rule is broken.
 */
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const dist = path.resolve(__dirname, '..', 'dist');
const root = path.join(dist, 'client');
const manifestFile = path.join(dist, 'bundle-manifest.json');
const LOGIN_ROUTE_BUDGET = 250 * 1024;
const CHUNK_BUDGET = 60 * 1024;

/** Where each library may be loaded: the chunk groups (by name prefix) allowed to pull it in. */
const PLACEMENT = [
  { label: 'echarts + zrender (charts)', packages: ['echarts', 'zrender'], onlyIn: ['view-sys-panel'] },
  { label: 'pinyin-pro (menu search)', packages: ['pinyin-pro'], onlyIn: ['menu-search'] },
  { label: 'dayjs (relative times)', packages: ['dayjs'], notOnLoginRoute: true },
];

const gzipSize = (file) => zlib.gzipSync(fs.readFileSync(path.join(root, file)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const sum = (files) => files.reduce((total, file) => total + gzipSize(file), 0);
const line = (file, size, note = '') => console.log(`  ${file.padEnd(44)} ${kb(size).padStart(10)}${note}`);

if (!fs.existsSync(path.join(root, 'index.html')) || !fs.existsSync(manifestFile)) {
  console.error('dist/client or dist/bundle-manifest.json is missing: run `npm run build:client` first.');
  process.exit(1);
}

const { groups, packages } = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
const html = fs.readFileSync(path.join(root, 'index.html'), 'utf8');
const loginFiles = [...html.matchAll(/(?:src|href)=["']?\/?([^"'\s>]+\.(?:js|css))/g)].map((match) => match[1]);
const allFiles = fs
  .readdirSync(path.join(root, 'assets'))
  .filter((name) => /\.(js|css)$/.test(name))
  .map((name) => `assets/${name}`);
const lazyFiles = allFiles.filter((name) => !loginFiles.includes(name)).sort();

let overBudget = false;
const fail = (message) => {
  overBudget = true;
  return `  ${message}`;
};

const loginTotal = sum(loginFiles);
console.log(`login route (/sys/verify): ${kb(loginTotal)} gzip (budget ${kb(LOGIN_ROUTE_BUDGET)})${loginTotal > LOGIN_ROUTE_BUDGET ? fail('over budget') : ''}`);
for (const file of loginFiles) line(file, gzipSize(file));

const shellFiles = lazyFiles.filter((file) => /^assets\/shell\./.test(file));
const shellTotal = sum(shellFiles);
console.log(`shell chunk: ${kb(shellTotal)} gzip (budget ${kb(CHUNK_BUDGET)})${shellTotal >= CHUNK_BUDGET ? fail('over budget') : ''}`);
for (const file of shellFiles) line(file, gzipSize(file));
const shellLoad = sum((groups.shell ?? []).filter((file) => !loginFiles.includes(file)));
console.log(
  `  with the shared chunks it pulls in, the shell's whole load beyond the login route: ${kb(shellLoad)} (budget ${kb(CHUNK_BUDGET)})${shellLoad >= CHUNK_BUDGET ? fail('over budget') : ''}`,
);

const namedChunk = (file) => /^assets\/[a-z][a-z-]*\./.test(file) && !shellFiles.includes(file);
console.log(`screen and other named lazy chunks (budget ${kb(CHUNK_BUDGET)} each):`);
for (const file of lazyFiles.filter(namedChunk)) {
  const size = gzipSize(file);
  line(file, size, size >= CHUNK_BUDGET ? fail('over budget') : '');
}
console.log('shared chunks (loaded by):');
for (const file of lazyFiles.filter((name) => !namedChunk(name) && !shellFiles.includes(name))) {
  const users = Object.keys(groups).filter((group) => groups[group].includes(file));
  line(file, gzipSize(file), `  ${users.join(', ')}`);
}

console.log('libraries:');
for (const rule of PLACEMENT) {
  const files = Object.keys(packages).filter((file) => packages[file].some((name) => rule.packages.includes(name)));
  const loadedBy = [...new Set(files.flatMap((file) => Object.keys(groups).filter((group) => groups[group].includes(file))))].sort();
  const onLogin = files.filter((file) => loginFiles.includes(file));
  const misplaced = rule.onlyIn ? loadedBy.filter((group) => !rule.onlyIn.some((allowed) => group.startsWith(allowed))) : [];
  const where = files.length === 0 ? 'not in the bundle' : `${kb(sum(files))} in ${files.join(', ')}, loaded by ${loadedBy.join(', ')}`;
  const wrong = onLogin.length > 0 ? fail('on the login route') : misplaced.length > 0 ? fail(`loaded by ${misplaced.join(', ')} too`) : '  ok';
  console.log(`  ${rule.label}: ${where}${wrong}`);
}

if (overBudget) {
  console.error('bundle over budget or a library out of place (docs/client.md, bundle budget)');
  process.exitCode = 1;
}
