/** The PostgreSQL connection pool outlives connections the server cuts (restart, failover). */
import { Client } from 'pg';
import { createTestDatabase, startTestApp, ADMIN_PASSWORD, SETUP_TIMEOUT_MS } from './support/harness';

const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

onPostgres('PostgreSQL pool', () => {
  it('keeps serving after the server terminates its idle connections', async () => {
    const target = await createTestDatabase('postgres');
    const app = await startTestApp(target);
    try {
      const token = await app.login('admin', ADMIN_PASSWORD);
      const admin = new Client({ connectionString: target.url });
      await admin.connect();
      const { rowCount } = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      await admin.end();
      expect(rowCount).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await app.call('GET /sys/menu/authority', null, token)).code).toBe(200);
    } finally {
      await app.close();
      await target.drop();
    }
    // It creates and migrates its own database (see the harness's setup budget).
  }, SETUP_TIMEOUT_MS);
});
