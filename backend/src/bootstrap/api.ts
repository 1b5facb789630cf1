import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from '../app.module';
import { AppConfig, loadConfig } from '../config/app-config';
import { configureApp } from './configure-app';

/** Creates and configures the API application without listening (tests and the OpenAPI script use it too). */
export async function createApiApp(
  config: AppConfig,
  options: { logger?: false; shutdownHooks?: boolean } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, 'api'), {
    bufferLogs: options.logger !== false,
    logger: options.logger,
    bodyParser: false,
    rawBody: true, // webhooks verify signatures over the exact bytes (req.rawBody)
    abortOnError: false, // throw (with the reason) instead of exiting the process
  });
  configureApp(app, config, { useAppLogger: options.logger !== false, shutdownHooks: options.shutdownHooks });
  return app;
}

/** Creates, configures and starts the API on config.port. */
export async function startApi(config: AppConfig = loadConfig()): Promise<{ app: NestExpressApplication; url: string }> {
  const app = await createApiApp(config);
  await app.listen(config.port, config.host);
  return { app, url: config.appUrl };
}
