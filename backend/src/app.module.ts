import { DynamicModule, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { ImageWorkModule } from './common/concurrency';
import { IdempotencyModule } from './common/idempotency';
import { LoggingModule } from './common/logging/logging.module';
import { ObservabilityModule } from './common/observability/observability.module';
import { OpsEventsModule } from './common/ops-events';
import { PROCESS_ROLE, type ProcessRole } from './common/process-role';
import { AppConfig } from './config/app-config';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { AdminModule } from './modules/admin/admin.module';
import { AnalyticsModule } from './modules/analytics/analytics.module';
import { ApiTokensModule } from './modules/api-tokens/api-tokens.module';
import { AuditModule } from './modules/audit/audit.module';
import { AuthModule } from './modules/auth/auth.module';
import { BillingModule } from './modules/billing/billing.module';
import { CatalogModule } from './modules/catalog/catalog.module';
import { CreditsModule } from './modules/credits/credits.module';
import { DeveloperWebhooksModule } from './modules/developer-webhooks/developer-webhooks.module';
import { GenerationsModule } from './modules/generations/generations.module';
import { HealthModule } from './modules/health/health.module';
import { MailModule } from './modules/mail/mail.module';
import { NotificationsModule } from './modules/notifications/notifications.module';
import { PrivacyModule } from './modules/privacy/privacy.module';
import { SupportModule } from './modules/support/support.module';
import { UploadsModule } from './modules/uploads/uploads.module';
import { UsersModule } from './modules/users/users.module';
import { QueueName } from './queue/queue.constants';
import { QueueModule } from './queue/queue.module';
import { StorageModule } from './storage/storage.module';

export type { ProcessRole } from './common/process-role';

/** One application, two roles: the API (main.ts) and the queue consumers (worker.ts). */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, role: ProcessRole = 'api'): DynamicModule {
    return {
      module: AppModule,
      global: true,
      providers: [{ provide: PROCESS_ROLE, useValue: role }],
      exports: [PROCESS_ROLE],
      imports: [
        AppConfigModule.forRoot(config),
        LoggingModule,
        OpsEventsModule,
        ObservabilityModule,
        EventEmitterModule.forRoot(),
        ImageWorkModule,
        DatabaseModule,
        QueueModule.forRoot({
          driver: config.queue.driver,
          redisUrl: config.queue.redisUrl,
          prefix: config.queue.prefix,
          consume: role === 'worker' || config.queue.consumeInApi,
          concurrency: config.queue.concurrency,
          queueConcurrency: { [QueueName.Generations]: config.queue.generationsConcurrency },
          shutdownTimeoutMs: config.queue.shutdownTimeoutMs,
        }),
        StorageModule.forRoot(config),
        MailModule,
        UsersModule,
        AuthModule,
        CatalogModule,
        CreditsModule,
        AnalyticsModule,
        HealthModule,
        UploadsModule,
        GenerationsModule,
        PrivacyModule,
        AuditModule,
        AdminModule,
        NotificationsModule,
        SupportModule,
        BillingModule,
        IdempotencyModule,
        ApiTokensModule,
        DeveloperWebhooksModule,
      ],
    };
  }
}
