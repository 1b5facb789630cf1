import { DocumentBuilder, OpenAPIObject, type SecurityRequirementObject, SwaggerModule } from '@nestjs/swagger';
import { ACCESS_TOKEN_QUERY, SecurityScheme } from '../common/auth/authenticated.decorator';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { REFRESH_COOKIE, REFRESH_COOKIE_PATH } from '../modules/auth/refresh-cookie';
import type { AppConfig } from '../config/app-config';
import type { INestApplication } from '@nestjs/common';

/** The tags of the document, in the order a reader meets them; every @ApiTags() name must be here. */
export const API_TAGS: Readonly<Record<string, string>> = {
  auth:
    'Accounts and sessions: sign-up, sign-in (password, two-factor, Google), the refresh cookie that renews the access token, ' +
    'sign-out, and the mailed links (email verification, password reset).',
  developer:
    'For scripts and integrations (docs/api.md): personal API tokens (`Authorization: Bearer frk_...`, scoped, shown once) and ' +
    'webhook endpoints that receive signed events (generation.completed, generation.failed, credits.changed). Managed with a signed-in session only.',
  me: "The signed-in person's own account: profile, notification settings, statistics, password, two-factor, deleting the account; and the mail unsubscribe link.",
  catalog: 'The public catalogue: categories, clothing templates, poses and scenes, plans, credit costs, and their artwork.',
  uploads: 'Photos of myself to try clothes on: upload (verified adults only), read, delete, and the upload allowance.',
  generations: 'Try-on generations: check a start, start, follow live (server-sent events) or poll, cancel, download, delete.',
  billing:
    "Payments through Stripe: Checkout for a plan or a credit pack, and Stripe's billing portal (501 while payments are not configured).",
  support: 'The public contact form, "Report an image" included; a signed-in sender is linked to the ticket.',
  files: 'Private files through expiring signed links (only with the local storage driver; S3 links point at the bucket).',
  faces:
    '"Only you": the consent to the face checks and the live selfie (a head turn judged on this server) that lingerie, spicy and video need. ' +
    'Face measurements never leave our servers.',
  health: 'Liveness and readiness of the API and its dependencies, for orchestrators and monitors.',
  webhooks: 'Callbacks of the AI provider and of Stripe: called by the vendors, not by browsers.',
  admin:
    'The console (react-admin, ra-data-simple-rest dialect): dashboard, users, generations, audit log, notifications, support desk, ' +
    'outbox, queues, announcements. Staff roles only, as the access policy says.',
};

/** Builds the OpenAPI document; operation ids are the controller method names (they name the client's functions). */
export function buildOpenApiDocument(app: INestApplication, config: Pick<AppConfig, 'appName'>): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle(`${config.appName} API`)
    .setDescription(
      'REST API of the virtual try-on service. Errors are always `{ statusCode, code, message }`. ' +
        'Browsers authenticate with a short-lived bearer access token and an httpOnly refresh cookie; scripts with a personal API ' +
        'token (`apiToken`: created in Settings, each route names the scope it needs). Start and upload routes take an ' +
        '`Idempotency-Key`. Lists page with `page` (from 1) and `page_size`, and answer `total`. Guide: docs/api.md.',
    )
    .setVersion('1.0.0')
    // the API, the user app and the console share one origin (APP_URL): paths are relative to where this document is served
    .addServer('/', 'The origin that serves this document (APP_URL); every path starts with /api')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'The access token of a session (`access_token` of the session answers, valid 15 minutes)',
      },
      SecurityScheme.Bearer,
    )
    .addCookieAuth(
      REFRESH_COOKIE,
      {
        type: 'apiKey',
        in: 'cookie',
        name: REFRESH_COOKIE,
        description: `The httpOnly refresh cookie the session answers set (path ${REFRESH_COOKIE_PATH}): POST /api/auth/refresh exchanges it for a new access token`,
      },
      SecurityScheme.RefreshCookie,
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'query',
        name: ACCESS_TOKEN_QUERY,
        description:
          'The access token in the query, for an EventSource (which cannot send headers): only the event stream of a generation accepts it',
      },
      SecurityScheme.AccessTokenQuery,
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'frk_ API token',
        description:
          'A personal API token (`frk_...`, created in Settings, shown once), for scripts. A route that takes one lists the scope it ' +
          'needs; every other route answers a token 403 API_TOKEN_NOT_ALLOWED, and one without the scope 403 INSUFFICIENT_SCOPE. ' +
          'Rate limited per token (429 with Retry-After; RateLimit-* headers on every answer).',
      },
      SecurityScheme.ApiToken,
    );
  for (const [name, description] of Object.entries(API_TAGS)) builder.addTag(name, description);
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
      if (!operation) continue;
      if (!operation.responses.default) operation.responses.default = errorResponse;
      operation.security = securityOf(operation.security);
    }
  }
  return unwrapLoneAllOf(document);
}

/**
 * @nestjs/swagger wraps a named enum's $ref in `allOf` so that a description or `nullable` may sit
 * beside it (OpenAPI 3.0 ignores siblings of $ref); with nothing beside it the wrapper says
 * nothing, and linters flag it (no-illogical-composition-keywords): `{ allOf: [X] }` becomes X.
 */
function unwrapLoneAllOf<T>(node: T): T {
  if (Array.isArray(node)) return node.map((item) => unwrapLoneAllOf(item)) as T;
  if (!node || typeof node !== 'object') return node;
  const entries = Object.entries(node as Record<string, unknown>);
  if (entries.length === 1 && entries[0][0] === 'allOf' && Array.isArray(entries[0][1]) && entries[0][1].length === 1) {
    return unwrapLoneAllOf(entries[0][1][0] as T);
  }
  return Object.fromEntries(entries.map(([key, value]) => [key, unwrapLoneAllOf(value)])) as T;
}

/**
 * A route without @Authenticated() is public (the AuthGuard's one rule), and says so with
 * `security: []`; routes that take another credential (the refresh cookie) declare it with
 * @ApiSecurity(). Requirements merged from a controller and its methods are listed once, with the
 * anonymous alternative `{}` of an optional route last.
 */
function securityOf(requirements: SecurityRequirementObject[] | undefined): SecurityRequirementObject[] {
  const unique = new Map<string, SecurityRequirementObject>();
  for (const requirement of requirements ?? []) unique.set(JSON.stringify(requirement), requirement);
  const named = [...unique.values()].filter((r) => Object.keys(r).length > 0);
  return unique.has('{}') ? [...named, {}] : named;
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
