import { Global, Module } from '@nestjs/common';
import { AppConfig, loadConfig } from './app-config';

/** Injection token for the validated AppConfig. */
export const APP_CONFIG = Symbol('APP_CONFIG');

@Global()
@Module({})
export class AppConfigModule {
  /** Uses `config` when given (tests), else validates process.env and refuses to start on a bad value. */
  static forRoot(config?: AppConfig) {
    return {
      module: AppConfigModule,
      providers: [{ provide: APP_CONFIG, useFactory: () => config ?? loadConfig() }],
      exports: [APP_CONFIG],
    };
  }
}
