import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from '../app.module';
import { buildOpenApiDocument, stableStringify } from '../bootstrap/openapi';
import { REPO_ROOT } from '../bootstrap/static-ui';
import { AppConfig, loadConfig } from '../config/app-config';

/** A configuration good enough to build the module graph; nothing connects in preview mode. */
export function openApiConfig(): AppConfig {
  return loadConfig({
    DATABASE_URL: 'postgres://openapi@127.0.0.1:1/openapi',
    FILES_SIGNING_SECRET: 'openapi-document-generation-only-0000',
    AUTH_JWT_SECRET: 'openapi-document-generation-only-0000',
    APP_NAME: 'Fitting Room',
    NODE_ENV: 'development',
  });
}

/** Boots the app in preview mode (no providers instantiated, nothing listens) and answers the document as text. */
export async function generateOpenApiJson(): Promise<string> {
  const config = openApiConfig();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, 'api'), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  app.setGlobalPrefix('api');
  const document = buildOpenApiDocument(app, config);
  await app.close();
  return stableStringify(document);
}

export const OPENAPI_FILE = path.join(REPO_ROOT, 'openapi', 'openapi.json');

if (require.main === module) {
  generateOpenApiJson()
    .then((json) => {
      fs.writeFileSync(OPENAPI_FILE, json);
      process.stdout.write(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}\n`);
    })
    .catch((error) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    });
}
