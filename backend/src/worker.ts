import 'reflect-metadata';
import * as fs from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { WORKER_ALIVE_FILE, WORKER_HEARTBEAT_MS } from './bootstrap/health-probe';
import { run } from './bootstrap/run';
import { startTracing } from './common/observability/tracing';
import { loadConfig } from './config/app-config';
import { MessageQueueService } from './queue/message-queue.service';

/** The worker process: the same application without HTTP, consuming queue jobs. Scale by running more. */
run(async () => {
  const config = loadConfig();
  if (config.queue.driver !== 'bullmq') {
    throw new Error('The worker needs REDIS_URL: without Redis, jobs run inside the API process (npm start).');
  }
  startTracing(config, 'worker');
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, 'worker'), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  await app.init();
  app.get(Logger).log('Worker started, consuming jobs', 'Worker');
  const queue = app.get(MessageQueueService);
  const beat = async () => {
    const health = await queue.check().catch(() => ({ ok: false }));
    if (health.ok) fs.writeFileSync(WORKER_ALIVE_FILE, new Date().toISOString());
  };
  await beat();
  setInterval(() => void beat(), WORKER_HEARTBEAT_MS).unref();
});
