import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { dataSourceOptions } from './data-source';
import { openDataSource } from './migrate';
import type { DataSourceOptions } from 'typeorm';

/**
 * PostgreSQL through TypeORM; with DB_MIGRATIONS_RUN, pending migrations run when the app starts,
 * under the advisory lock (migrate.ts), before any module reads a table.
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config.database.url, { poolSize: config.database.poolSize }),
        // read by dataSourceFactory, which runs them under the lock (TypeORM's own run takes none)
        migrationsRun: config.database.runMigrations,
        migrationsTransactionMode: 'each',
        retryAttempts: 3,
        retryDelay: 1000,
      }),
      dataSourceFactory: async (options) => {
        const logger = new Logger('Migrations');
        return openDataSource(options as DataSourceOptions, options?.migrationsRun === true, (line) => logger.log(line));
      },
    }),
  ],
})
export class DatabaseModule {}
