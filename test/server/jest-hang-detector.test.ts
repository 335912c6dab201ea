/**
 * The server project's hang detector (test/server/setup.ts): a test may run past jest's default
 * 5 s, as the reader threads' priority test does when the browser lane loads the machine. Fails
 * with the project's own `testTimeout`, which jest ignores.
 */
it('lets a server test run past 5 s', async () => {
  await new Promise((resolve) => setTimeout(resolve, 5_200));
});
