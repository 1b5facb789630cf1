/**
 * Migrations run once (issue 35): two API replicas (`node dist/main.js`, real processes) start at the
 * same moment on a fresh database that needs every migration. Both come up, each migration is applied
 * once (one row each in typeorm_migrations), and neither logs an error. Then `npm run migrate`'s
 * script against the same database applies nothing and says so.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from '../../src/common/free-port';
import { MIGRATIONS } from '../../src/database/migrations';
import { DIST, launch, stop, type Proc } from '../faults/fault-kit';
import { waitFor } from '../generations/generation-test-kit';

const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('two API replicas starting together on a database that needs every migration', () => {
  const name = `${process.env.TEST_DB_NAME ?? 'fr_test'}_race`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-race-'));
  const apis: Proc[] = [];

  beforeAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${name}`);
  });

  afterAll(async () => {
    await Promise.all(apis.map((p) => stop(p)));
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('both come up, each migration is applied once, and nothing fails', async () => {
    const ports = [await freePort(), await freePort()];
    for (const [i, port] of ports.entries()) {
      apis.push(
        launch(`api-${i}`, 'main.js', {
          NODE_ENV: 'test',
          DATABASE_URL: url.toString(),
          DATA_DIR: path.join(dataDir, String(i)),
          FILES_SIGNING_SECRET: 'race-signing-secret-0123456789abcdef0123',
          AUTH_JWT_SECRET: 'race-jwt-secret-0123456789abcdef0123456789',
          PORT: String(port),
          HOST: '127.0.0.1',
          APP_URL: `http://127.0.0.1:${port}`,
          SERVE_UI: 'false',
          LOG_LEVEL: 'info',
          DB_MIGRATIONS_RUN: 'true',
        }),
      );
    }
    for (const [i, port] of ports.entries()) {
      await waitFor(
        `replica ${i} to answer /api/health/ready`,
        async () => {
          if (apis[i].exited()) throw new Error(`replica ${i} exited:\n${apis[i].output()}`);
          const res = await fetch(`http://127.0.0.1:${port}/api/health/ready`).catch(() => undefined);
          return res?.status === 200;
        },
        120_000,
        100,
      );
    }

    const db = new Client({ connectionString: url.toString() });
    await db.connect();
    try {
      const { rows } = await db.query<{ name: string; n: number }>(`SELECT name, count(*)::int AS n FROM typeorm_migrations GROUP BY name`);
      expect(rows.filter((r) => r.n !== 1)).toEqual([]);
      expect(rows.map((r) => r.name).sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());
    } finally {
      await db.end();
    }
    for (const api of apis) {
      const lines = api.output().split('\n');
      expect(lines.filter((l) => /"level":(50|60)|Failed to start|QueryFailedError|duplicate key/.test(l))).toEqual([]);
    }
    // one replica applied them all, the other waited its turn and found nothing to do
    const applied = apis.map((api) => api.output().includes(`applied ${MIGRATIONS.length} migration(s)`));
    expect(applied.filter(Boolean)).toHaveLength(1);
    expect(apis.map((api) => api.output()).join('\n')).not.toMatch(/applied \d+ migration\(s\)[\s\S]*applied \d+ migration\(s\)/);

    // `npm run migrate` beside them: nothing pending
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(DIST, 'scripts', 'migrate.js')], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: url.toString() },
    });
    expect(stdout).toContain('No migration pending.');
  }, 240_000);
});
