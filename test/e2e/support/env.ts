/**
 * What global setup hands to the tests. Playwright runs global setup in the runner process and the
 * tests in worker processes it spawns afterwards, so environment variables are the channel.
 */
export const ADMIN_USER = 'admin';
/** Known only to this suite's own server, which seeds admin with it on first start. */
// Must pass the server's password policy, which refuses a password containing the user name.
export const ADMIN_PASSWORD = 'E2e-Hotel-Passw0rd!';

/**
 * How long a test waits for the server to answer a call: the server's own request timeout
 * (REQUEST_TIMEOUT_MS). Tests check what the answer does, never how fast it came (benchmarks do);
 * a server held up meanwhile shows in the warnings the suite's teardown prints.
 */
export const ANSWER_TIMEOUT_MS = 30_000;

export const ENV = {
  baseUrl: 'E2E_BASE_URL',
  serverPid: 'E2E_SERVER_PID',
  dataDir: 'E2E_DATA_DIR',
  serverLog: 'E2E_SERVER_LOG',
} as const;

export function baseUrl(): string {
  const url = process.env[ENV.baseUrl];
  if (!url) throw new Error(`${ENV.baseUrl} is not set: the e2e server is started by test/e2e/support/global-setup.ts`);
  return url;
}
