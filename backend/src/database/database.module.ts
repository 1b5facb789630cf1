import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { dataSourceOptions } from './data-source';

/** PostgreSQL through TypeORM; pending migrations run when the app starts (DB_MIGRATIONS_RUN). */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config.database.url, { poolSize: config.database.poolSize }),
        migrationsRun: config.database.runMigrations,
        migrationsTransactionMode: 'each',
        retryAttempts: 3,
        retryDelay: 1000,
      }),
    }),
  ],
})
export class DatabaseModule {}
