import 'reflect-metadata';
import * as fs from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { run } from './bootstrap/run';
import { loadConfig } from './config/app-config';
import { MessageQueueService } from './queue/message-queue.service';

/** Touched while the worker can reach its queue; docker-compose's health check reads its age. */
export const WORKER_ALIVE_FILE = process.env.WORKER_ALIVE_FILE || '/tmp/fitting-room-worker.alive';

/** The worker process: the same application without HTTP, consuming queue jobs. Scale by running more. */
run(async () => {
  const config = loadConfig();
  if (config.queue.driver !== 'bullmq') {
    throw new Error('The worker needs REDIS_URL: without Redis, jobs run inside the API process (npm start).');
  }
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
  setInterval(() => void beat(), 15_000).unref();
});
