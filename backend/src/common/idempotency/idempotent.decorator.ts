import { IDEMPOTENCY_KEY_HEADER } from '@fitting-room/shared/developer-api';
import { DeveloperMessages } from '@fitting-room/shared/error-catalogue';
import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiConflictResponse, ApiHeader, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../errors/error-response.dto';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * The route takes an `Idempotency-Key` header (docs/api.md): the same key and body within 24 hours
 * answer the first success again (with `Idempotent-Replayed: true`) and start nothing; the same key
 * with another body 422 IDEMPOTENCY_KEY_REUSED; a retry while the first runs 409
 * IDEMPOTENCY_KEY_IN_USE. Put it above the route's own @UseInterceptors (it must see the parsed body).
 */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description:
        'A key of your choice (1 to 255 printable characters; a UUID is usual) that makes retrying safe: the same key and body within ' +
        '24 hours answer the first success again, with `Idempotent-Replayed: true`, and start nothing. A failed request keeps nothing.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    }),
    ApiUnprocessableEntityResponse({
      type: ErrorResponseDto,
      description: `IDEMPOTENCY_KEY_REUSED: "${DeveloperMessages.idempotencyKeyReused}"`,
    }),
    ApiConflictResponse({ type: ErrorResponseDto, description: `IDEMPOTENCY_KEY_IN_USE: "${DeveloperMessages.idempotencyKeyInUse}"` }),
  );
}
