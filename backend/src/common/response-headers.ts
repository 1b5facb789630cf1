import type { HeadersObject } from '@nestjs/swagger';

/**
 * Response headers the OpenAPI document describes, for the `headers` of @Api*Response(): each one
 * where the route really sends it.
 */

/** Sent with a 429 or 503 when the wait is known: the throttler guard and the exception filter (RateLimitError, ServiceUnavailableError). */
export const RETRY_AFTER_HEADER: HeadersObject = {
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1, example: 30 } },
};

/** The target of a redirect. */
export function locationHeader(description: string): HeadersObject {
  return { Location: { description, schema: { type: 'string', format: 'uri-reference' } } };
}

/** ra-data-simple-rest's total of a list route (common/simple-rest: setContentRange). */
export function contentRangeHeader(resource: string): HeadersObject {
  return {
    'Content-Range': {
      description: `\`${resource} <first>-<last>/<total>\` (both inclusive, from 0), or \`${resource} */<total>\` for an empty page`,
      schema: { type: 'string', example: `${resource} 0-49/1234` },
    },
  };
}

/** A session answer sets the refresh cookie (modules/auth/refresh-cookie.ts). */
export function setCookieHeader(description: string): HeadersObject {
  return { 'Set-Cookie': { description, schema: { type: 'string' } } };
}
