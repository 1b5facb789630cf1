// Drops the database that global-setup.js created for this run.
const { Client } = require('pg');

module.exports = async function globalTeardown() {
  const name = process.env.TEST_DB_NAME;
  if (!name) return;
  const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
};
