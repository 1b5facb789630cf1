import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { LocalStorageDriver } from './drivers/local-storage.driver';
import { S3StorageDriver } from './drivers/s3-storage.driver';
import { FilesController } from './files.controller';
import { STORAGE, type StoragePort } from './storage.port';
import type { AppConfig } from '../config/app-config';

/** Builds the driver `config.storage.driver` names; the local one creates its directories first. */
export async function createStorageDriver(config: AppConfig): Promise<StoragePort> {
  if (config.storage.driver === 's3') return new S3StorageDriver(config);
  const local = new LocalStorageDriver(config);
  await local.init();
  return local;
}

/**
 * Provides STORAGE everywhere (global). The driver is built from APP_CONFIG; the `config` argument
 * decides, when the module is defined, whether FilesController (GET /api/files/*key) exists: only
 * the local driver needs it, S3 links point at the bucket. Both must name the same driver.
 */
@Global()
@Module({})
export class StorageModule {
  static forRoot(config: AppConfig): DynamicModule {
    const driver = config.storage.driver;
    return {
      module: StorageModule,
      global: true,
      controllers: driver === 'local' ? [FilesController] : [],
      providers: [
        {
          provide: STORAGE,
          inject: [APP_CONFIG],
          useFactory: (appConfig: AppConfig) => {
            if (appConfig.storage.driver !== driver) {
              throw new Error(
                `StorageModule.forRoot() was given storage driver "${driver}" but APP_CONFIG says "${appConfig.storage.driver}"`,
              );
            }
            return createStorageDriver(appConfig);
          },
        },
      ],
      exports: [STORAGE],
    };
  }
}
