#!/usr/bin/env node
/**
 * `npm run dev`: the API server (port PORT, default 8080) and the webpack dev server (port 3000,
 * proxying /api to it, hot reload) side by side. Ctrl+C stops both.
 */
const { spawn } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const env = { ...process.env, NODE_ENV: 'development', PORT: process.env.PORT ?? '8080' };

const children = [
  spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/server/main.ts'], {
    cwd: root,
    env: { ...env, TS_NODE_PROJECT: 'tsconfig.server.json' },
    stdio: 'inherit',
  }),
  spawn(process.execPath, [require.resolve('webpack-cli/bin/cli.js'), 'serve', '--mode', 'development'], {
    cwd: root,
    env,
    stdio: 'inherit',
  }),
];

let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}

for (const child of children) child.on('exit', (code) => stopAll(code ?? 1));
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
