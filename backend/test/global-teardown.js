// Drops the databases that global-setup.js created for this run (one per Jest worker).
const { Client } = require('pg');

module.exports = async function globalTeardown() {
  const names = (process.env.TEST_DB_NAMES || '').split(',').filter(Boolean);
  if (names.length === 0) return;
  const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
};
