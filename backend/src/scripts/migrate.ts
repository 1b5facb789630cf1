import 'reflect-metadata';
import { run } from '../bootstrap/run';
import { ConfigurationError } from '../config/app-config';
import { envSchema } from '../config/env.schema';
import { migrateUnderLock, migrationDataSource } from '../database/migrate';

/**
 * `npm run migrate` (and docker compose's one-shot `migrate` service): applies the pending
 * migrations of DATABASE_URL under the advisory lock the API's own start takes, so it never races
 * an API replica, and exits. Running it again applies nothing.
 */
run(async () => {
  const parsed = envSchema.shape.DATABASE_URL.safeParse(process.env.DATABASE_URL);
  if (!parsed.success) throw new ConfigurationError(['DATABASE_URL is required (postgres://user:password@host:5432/database)']);
  const db = migrationDataSource(parsed.data);
  await db.initialize();
  try {
    const applied = await migrateUnderLock(db, (line) => process.stdout.write(`${line}\n`));
    if (applied.length === 0) process.stdout.write('No migration pending.\n');
  } finally {
    await db.destroy();
  }
});
