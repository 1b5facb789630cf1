import { Global, Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { QueueHeartbeatService } from './heartbeat.job';
import { JobRegistry } from './job-registry';
import { MessageQueueService } from './message-queue.service';
import { createQueueDriver } from './queue-driver.factory';
import { QUEUE_DRIVER, QUEUE_MODULE_OPTIONS } from './queue.constants';
import type { QueueModuleOptions } from './queue-module.options';

/**
 * The job queue for the whole app (global): MessageQueueService to add jobs, @OnJob to handle
 * them. With `consume`, this process runs jobs and refuses to start unless every job has exactly
 * one handler.
 */
@Global()
@Module({})
export class QueueModule {
  static forRoot(options: QueueModuleOptions): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [
        { provide: QUEUE_MODULE_OPTIONS, useValue: options },
        { provide: QUEUE_DRIVER, useFactory: () => createQueueDriver(options) },
        JobRegistry,
        MessageQueueService,
        QueueHeartbeatService,
      ],
      exports: [MessageQueueService, QUEUE_DRIVER, QueueHeartbeatService],
    };
  }
}
