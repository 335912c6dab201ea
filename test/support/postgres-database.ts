/**
 * A throw-away PostgreSQL database on the server of TEST_DATABASE_URL, for the server suites (one
 * per suite) and the deployment suites (one per cluster). Imports nothing of the product.
 */
import crypto from 'node:crypto';
import { Client } from 'pg';

export interface PostgresDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createPostgresDatabase(prefix: string, adminUrl = process.env.TEST_DATABASE_URL): Promise<PostgresDatabase> {
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set: this test needs a PostgreSQL server');
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  // A throw-away database need not outlive a crash of the PostgreSQL server: its commits return
  // without waiting for the WAL flush (what a client sees is unchanged; only that crash could lose
  // the last ones), which the suites' thousands of small transactions otherwise wait on.
  await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
