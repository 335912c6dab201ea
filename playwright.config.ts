/**
 * Browser suite (issue 5): drives the built product (dist/) in Debian's Chromium. The suite starts
 * its own server on a free port with a throw-away data directory (test/e2e/support/global-setup.ts),
 * so it runs beside a developer's instance on 8080. `npm run test:e2e` builds first; the suite never
 * builds and never downloads a browser.
 */
import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!fs.existsSync(chromiumPath)) {
  // Fail loudly: a suite that skips when the browser is missing looks green and tests nothing.
  throw new Error(
    `Chromium not found at ${chromiumPath}. Install Debian's Chromium and CJK fonts with ` +
      '`apt-get install -y chromium fonts-noto-cjk` (as root), or set CHROMIUM_PATH to a Chromium binary. ' +
      'Do not run `playwright install`: this project uses the system browser.',
  );
}

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '*.spec.ts',
  outputDir: 'test-results',
  globalSetup: './test/e2e/support/global-setup.ts',
  globalTeardown: './test/e2e/support/global-teardown.ts',
  // Two cores: one browser at a time keeps timings honest and the shared database predictable.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    headless: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1366, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'off',
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    launchOptions: {
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
});
