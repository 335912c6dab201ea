/**
 * The server project's hang detector: 30 s, not jest's 5. Server tests drive real databases,
 * sockets, brokers and low-priority reader threads while the browser lane runs beside them, and
 * on a loaded machine a sound test can pass 5 s. Set here because jest-circus takes `testTimeout`
 * from the global configuration only: a project's own `testTimeout` is ignored. No test asserts on time.
 */
jest.setTimeout(30_000);
