import { Client } from 'pg';

const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * For specs that change shared data (the catalogue is in the database, and every app of the run
 * reloads it): a database of the spec's own. `create()` (first in beforeAll) makes it and points
 * `TEST_DB_URL` at it, so the helpers (createTestApp, markEmailVerified, ...) use it too; `drop()`
 * (last in afterAll, after the apps closed) puts everything back.
 */
export function ownDatabase(label: string): { create(): Promise<void>; drop(): Promise<void> } {
  const name = `${process.env.TEST_DB_NAME ?? 'fr_test'}_${label}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const previous = process.env.TEST_DB_URL;
  const admin = async (sql: string): Promise<void> => {
    const client = new Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    async create() {
      await admin(`CREATE DATABASE ${name}`);
      const url = new URL(ADMIN_URL);
      url.pathname = `/${name}`;
      process.env.TEST_DB_URL = url.toString();
    },
    async drop() {
      process.env.TEST_DB_URL = previous;
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
