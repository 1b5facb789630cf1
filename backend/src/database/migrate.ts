import { DataSource, type DataSourceOptions } from 'typeorm';
import { dataSourceOptions } from './data-source';

/**
 * The key of the PostgreSQL advisory lock that every migration run holds (pg_advisory_lock takes a
 * bigint; this is `hashtextextended('fitting-room:migrations', 0)` written out, so that psql can
 * name it too: `SELECT * FROM pg_locks WHERE locktype = 'advisory'`).
 */
export const MIGRATIONS_LOCK_KEY = '-1854252948164458130';

/**
 * Runs the pending migrations while holding the advisory lock: API replicas starting together on
 * a release with a migration, or `npm run migrate` beside them, take turns; the first applies
 * each migration (each in its own transaction), the others then find nothing pending. The lock
 * is held on a connection of its own and ends with it, so a process that dies mid-way leaves no lock
 * behind. Answers the names of the migrations this call applied.
 */
export async function migrateUnderLock(db: DataSource, log: (line: string) => void = () => undefined): Promise<string[]> {
  const lock = db.createQueryRunner();
  await lock.connect();
  try {
    const waited = Date.now();
    await lock.query(`SELECT pg_advisory_lock($1::bigint)`, [MIGRATIONS_LOCK_KEY]);
    if (Date.now() - waited > 1000) log(`waited ${Date.now() - waited} ms for another process's migrations`);
    try {
      const applied = (await db.runMigrations({ transaction: 'each' })).map((m) => m.name);
      if (applied.length) log(`applied ${applied.length} migration(s): ${applied.join(', ')}`);
      return applied;
    } finally {
      await lock.query(`SELECT pg_advisory_unlock($1::bigint)`, [MIGRATIONS_LOCK_KEY]);
    }
  } finally {
    await lock.release();
  }
}

/**
 * The app's DataSource (DatabaseModule's dataSourceFactory): connected, and with `migrate` its
 * pending migrations applied under the lock before any module reads a table.
 */
export async function openDataSource(options: DataSourceOptions, migrate: boolean, log?: (line: string) => void): Promise<DataSource> {
  const db = new DataSource({ ...options, migrationsRun: false } as DataSourceOptions);
  await db.initialize();
  if (!migrate) return db;
  try {
    await migrateUnderLock(db, log);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw error;
  }
  return db;
}

/** A DataSource for a one-off migration run (`npm run migrate`). */
export function migrationDataSource(url: string): DataSource {
  return new DataSource(dataSourceOptions(url, { poolSize: 2, applicationName: 'fitting-room-migrate' }));
}
