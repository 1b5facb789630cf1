import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import type { AppConfig } from '../config/app-config';

/** Builds the OpenAPI document; operation ids are the controller method names (they name the client's functions). */
export function buildOpenApiDocument(app: INestApplication, config: Pick<AppConfig, 'appName'>): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle(`${config.appName} API`)
    .setDescription(
      'REST API of the virtual try-on service. Errors are always `{ statusCode, code, message }`. ' +
        'Browsers authenticate with a short-lived bearer access token and an httpOnly refresh cookie.',
    )
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer');
  const document = SwaggerModule.createDocument(app, builder.build(), {
    operationIdFactory: (_controllerKey: string, methodKey: string) => methodKey,
    extraModels: [ErrorResponseDto],
  });
  // Every operation can fail with the catalogue's error body: say so once, here.
  const errorResponse = {
    description: 'An error from the catalogue: `{ statusCode, code, message }`',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponseDto' } } },
  };
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item[method];
      if (operation && !operation.responses.default) operation.responses.default = errorResponse;
    }
  }
  return document;
}

/** Deterministic JSON (keys sorted at every level) so the committed file only changes when the API does. */
export function stableStringify(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v as Record<string, unknown>)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sort(value), null, 2) + '\n';
}
