/**
 * The throw-away databases a bench section runs on: a SQLite data directory, and a PostgreSQL
 * database created on the server of `adminUrl` (skipped with a line when it does not answer).
 * Each is removed afterwards, whatever happened.
 */
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

async function withTemporarySqlite(prefix, run) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  try {
    await run(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function withTemporaryPostgres(adminUrl, prefix, section, run) {
  const { Client } = require('pg');
  const admin = new Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`\n== ${section} on PostgreSQL: skipped (${adminUrl}: ${error.message})`);
    return;
  }
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    await run(Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

module.exports = { withTemporarySqlite, withTemporaryPostgres };
