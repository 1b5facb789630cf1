import { DataSource, DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** TypeORM options shared by the app, the CLI and the tests. Never `synchronize`: migrations only. */
export function dataSourceOptions(url: string, extra: Partial<{ poolSize: number; applicationName: string }> = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'typeorm_migrations',
    synchronize: false,
    uuidExtension: 'pgcrypto', // gen_random_uuid(), built into PostgreSQL 13+
    installExtensions: false,
    migrationsRun: false,
    // not 'error': a failed query's log would print its parameters (password hashes, tokens);
    // the exception filter logs failures without them
    logging: ['warn', 'migration'],
    poolSize: extra.poolSize ?? 10,
    applicationName: extra.applicationName ?? 'fitting-room',
  } as DataSourceOptions;
}

/** Used by the TypeORM CLI (`typeorm migration:generate -d dist/database/data-source.js`). */
export default new DataSource(dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'));
