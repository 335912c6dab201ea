#!/usr/bin/env node
/**
 * Gzip sizes of the built client (dist/client) against the budget of DESIGN 9: the login route
 * (everything index.html loads: entry scripts and stylesheets) at most 250 KB, each screen chunk
 * (view-*, and the shell) under 60 KB. Shared chunks (library code several screens use, such as
 * antd's table) are listed without a limit. Prints a table and sets exit code 1 when over budget.
 */
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const root = path.resolve(__dirname, '..', 'dist', 'client');
const LOGIN_ROUTE_BUDGET = 250 * 1024;
const CHUNK_BUDGET = 60 * 1024;

const gzipSize = (file) => zlib.gzipSync(fs.readFileSync(path.join(root, file)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

if (!fs.existsSync(path.join(root, 'index.html'))) {
  console.error('dist/client/index.html is missing: run `npm run build:client` first.');
  process.exit(1);
}

const html = fs.readFileSync(path.join(root, 'index.html'), 'utf8');
const loginFiles = [...html.matchAll(/(?:src|href)=["']?\/?([^"'\s>]+\.(?:js|css))/g)].map((match) => match[1]);
const allFiles = fs.readdirSync(path.join(root, 'assets')).filter((name) => /\.(js|css)$/.test(name)).map((name) => `assets/${name}`);

let overBudget = false;
const loginTotal = loginFiles.reduce((sum, file) => sum + gzipSize(file), 0);
console.log(`login route (/sys/verify): ${kb(loginTotal)} gzip (budget ${kb(LOGIN_ROUTE_BUDGET)})`);
for (const file of loginFiles) console.log(`  ${file.padEnd(44)} ${kb(gzipSize(file)).padStart(10)}`);
if (loginTotal > LOGIN_ROUTE_BUDGET) overBudget = true;

const lazyFiles = allFiles.filter((name) => !loginFiles.includes(name)).sort();
const isScreenChunk = (file) => /^assets\/(view-[^.]+|shell)\./.test(file);

console.log(`screen chunks (budget ${kb(CHUNK_BUDGET)} each):`);
for (const file of lazyFiles.filter(isScreenChunk)) {
  const size = gzipSize(file);
  const over = size >= CHUNK_BUDGET;
  if (over) overBudget = true;
  console.log(`  ${file.padEnd(44)} ${kb(size).padStart(10)}${over ? '  over budget' : ''}`);
}
console.log('shared chunks:');
for (const file of lazyFiles.filter((name) => !isScreenChunk(name))) console.log(`  ${file.padEnd(44)} ${kb(gzipSize(file)).padStart(10)}`);

if (overBudget) {
  console.error('bundle over budget (DESIGN 9)');
  process.exitCode = 1;
}
