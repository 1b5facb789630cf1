import { BadRequestException, INestApplication, ValidationError as ClassValidatorError, ValidationPipe } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import { urlencoded } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AppExceptionFilter, ErrorCode } from '../common/errors';
import { observeHttp } from '../common/observability/http-observer';
import { Metrics } from '../common/observability/metrics.service';
import { PROVIDER_WEBHOOK_PATH, providerWebhookBodyParser } from '../modules/generations/provider-webhook-body';
import { AI_PROVIDER, type AiProvider } from '../modules/generations/providers/ai-provider';
import { compressJsonAnswers, compressResponses } from './compression';
import { buildOpenApiDocument } from './openapi';
import { requestShapeGuard } from './request-shape';
import { serveUserInterfaces } from './static-ui';
import type { AppConfig } from '../config/app-config';

function flattenValidationErrors(errors: ClassValidatorError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => (m.startsWith(e.property) ? m.replace(e.property, field) : m));
    return [...own, ...flattenValidationErrors(e.children ?? [], field)];
  });
}

/** The global pipe: strips unknown fields and refuses requests that carry them; messages in the catalogue's shape. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) =>
      // the same wording for several fields (e.g. sign-in's "email or phone number and a password") is said once
      new BadRequestException({
        code: ErrorCode.VALIDATION_ERROR,
        message: [...new Set(flattenValidationErrors(errors))].join('; ') || 'Invalid request',
      }),
  });
}

/** Everything the HTTP app needs besides its modules; shared by main.ts, the launcher and the tests. */
export function configureApp(
  app: INestApplication,
  config: AppConfig,
  options: { useAppLogger?: boolean; shutdownHooks?: boolean } = {},
): void {
  const express = app as NestExpressApplication;
  if (options.useAppLogger !== false) app.useLogger(app.get(Logger));
  express.disable('x-powered-by');
  // X-Forwarded-For is believed only from the proxies TRUST_PROXY names (none by default)
  express.set('trust proxy', config.trustProxy ?? false);
  // no ETag hashed over every JSON answer: API data is per user and changes (the catalogue and the
  // artwork set their own version ETags; the apps' files get theirs from the static handler)
  express.set('etag', false);
  // first of all: every answer is counted and timed by route template, and is a span when tracing is on
  app.use(observeHttp(app.get(Metrics)));
  // the AI vendor's calls may carry more than 1 MB (FASHN sends the result as base64): its own limit, read
  // only for calls its URL token proves genuine (provider-webhook-body.ts); everything else keeps 1 MB
  app.use(PROVIDER_WEBHOOK_PATH, providerWebhookBodyParser(app.get<AiProvider>(AI_PROVIDER, { strict: false })));
  express.useBodyParser('json', { limit: '1mb' });
  // RFC 8058: mail clients send one-click unsubscribes as a form; no other route reads forms
  app.use('/api/mail/unsubscribe', urlencoded({ extended: false, limit: '4kb' }));
  // nothing too deep to walk, no NUL in any text: a clear 400 instead of a 500
  app.use(requestShapeGuard());
  app.setGlobalPrefix('api');
  // browsers load photos and results from presigned URLs: from the public S3 origin when one is set
  const s3 = config.storage.s3;
  const fileOrigins = s3 ? [s3.publicEndpoint ?? s3.endpoint ?? 'https:'] : ['https:'];
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'default-src': ["'self'"],
          'script-src': ["'self'"],
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:', 'blob:', ...fileOrigins],
          'media-src': ["'self'", 'blob:', ...fileOrigins],
          'connect-src': ["'self'"],
          'frame-ancestors': ["'none'"],
          'upgrade-insecure-requests': config.isProduction ? [] : null,
        },
      },
      crossOriginEmbedderPolicy: false,
      // Kept at helmet's `same-origin`, pages included: no other origin's window keeps a handle on
      // ours (the landing page becomes the signed-in app without a new navigation). Its price is a
      // renderer process of the page's own per navigation, which Lighthouse's phone simulation counts
      // as blocking time (docs/performance.md, "Sixth session").
      crossOriginOpenerPolicy: { policy: 'same-origin' },
    }),
  );
  app.enableCors({
    origin: config.corsOrigins,
    credentials: true,
    exposedHeaders: ['Content-Range', 'X-Total-Count', 'X-Request-Id', 'Content-Disposition'],
  });
  app.use(cookieParser());
  // brotli/gzip for the apps' files, JSON and SVG artwork; never event streams (see compression.ts)
  app.use(compressResponses());
  app.use('/api', compressJsonAnswers());
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AppExceptionFilter());

  const document = buildOpenApiDocument(app, config);
  SwaggerModule.setup('api/docs', app, document, {
    useGlobalPrefix: false,
    jsonDocumentUrl: 'api/docs-json',
    customSiteTitle: `${config.appName} API`,
  });

  if (config.serveUi) serveUserInterfaces(app, config);
  // main.ts: Nest closes the app on SIGTERM/SIGINT. The launcher (npm start) orders shutdown itself.
  if (options.shutdownHooks !== false) app.enableShutdownHooks();
}
